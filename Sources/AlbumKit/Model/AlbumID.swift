import Foundation

/// The stable identity of an album: assigned once, never reused, never all digits
/// (so a bare number on the command line is always a position).
public struct AlbumID: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// A new random id (a lower-case UUID, which always holds letters or dashes).
    public static func generate() -> AlbumID {
        AlbumID(UUID().uuidString.lowercased())
    }

    /// Whether `text` is acceptable as an id: non-empty, not all digits, no white space.
    public static func isValid(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 256 else { return false }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {  // the usual case, decided byte by byte
            return text.utf8.contains { !(0x30...0x39).contains($0) } && !text.utf8.contains { $0.isASCIIWhiteSpaceOrNonASCII }
        }
        return text.contains { !$0.isASCII || !$0.isNumber } && !text.contains { $0.isWhitespace || $0.isNewline }
    }
}
