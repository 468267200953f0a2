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

    /// Whether `text` is acceptable as an id (SPEC 1): non-empty, at most 256 bytes, not all
    /// digits, no control characters, and no white space at either end — inner spaces are
    /// fine (`"album:1/custom id"`).
    public static func isValid(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 256 else { return false }
        guard text.utf8.contains(where: { !(0x30...0x39).contains($0) }) else { return false }
        guard !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return false }
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        return !first.properties.isWhitespace && !last.properties.isWhitespace
    }
}
