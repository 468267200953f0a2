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
        let ends: (first: UInt8, last: UInt8)? = text.withUTF8Bytes { bytes in
            guard bytes.contains(where: { !(0x30...0x39).contains($0) }), !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
            return (bytes[0], bytes[bytes.count - 1])
        }
        guard let ends else { return false }
        // An ASCII end is white space only as a space (the others are control characters, refused above).
        if ends.first < 0x80 && ends.last < 0x80 { return ends.first != 0x20 && ends.last != 0x20 }
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        return !first.properties.isWhitespace && !last.properties.isWhitespace
    }
}
