/// A one-line account of a decoding failure that names where in the input it happened.
extension Error {
    var decodingSummary: String {
        guard let error = self as? DecodingError else {
            return (self as? AlbumKitError)?.description ?? String(describing: self)
        }
        func path(_ context: DecodingError.Context) -> String {
            let parts = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return parts.isEmpty ? "at the top level" : "at \(parts.hasPrefix(".") ? String(parts.dropFirst()) : parts)"
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context)): missing \(type) value"
        case .keyNotFound(let key, let context):
            return "\(path(context)): missing key '\(key.stringValue)'"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return "\(path(context)): \(context.debugDescription)\(underlying)"
        @unknown default:
            return String(describing: error)
        }
    }
}
