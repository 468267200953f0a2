import AlbumKit
import ArgumentParser

/// One `update --set field=value`.
struct FieldAssignment {
    /// The fields `--set` may name.
    static let fields = ["title", "artist", "genre", "year", "cover"]

    let field: String
    let value: String

    init(_ text: String) throws {
        guard let equals = text.firstIndex(of: "=") else {
            throw ValidationError("--set takes field=value, not '\(text)'")
        }
        field = String(text[..<equals])
        value = String(text[text.index(after: equals)...])
    }

    /// Sets the field in `patch`; an unknown field, or one set twice, is an error.
    func apply(to patch: inout AlbumPatch) throws {
        let path: WritableKeyPath<AlbumPatch, String?>
        switch field.lowercased() {
        case "title": path = \.title
        case "artist": path = \.artist
        case "genre": path = \.genre
        case "year": path = \.year
        case "cover", "coverurl": path = \.coverUrl
        default:
            throw ValidationError(
                "--set: unknown field '\(field)'\(Spelling.suggestion(for: field, among: Self.fields)) (fields: \(Self.fields.joined(separator: ", ")))")
        }
        guard patch[keyPath: path] == nil else { throw ValidationError("--set: \(field) is given twice") }
        patch[keyPath: path] = value
    }
}
