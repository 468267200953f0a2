import AlbumKit

/// Writes the hot responses (pages of albums) as JSON bytes directly: Foundation's
/// `JSONEncoder` spent two thirds of a `GET /api/albums` in generic encoding and key
/// sorting. Strings are escaped by the core's one JSON string escaper.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Punctuation and keys the caller spells out (`{"albums":[`).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A JSON string (``Swift/Array/appendJSONString(_:)``, the library writer's escaping).
    mutating func string(_ text: String) {
        bytes.appendJSONString(text)
    }

    /// A JSON string, or `null`.
    mutating func string(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    /// An album as the core's one JSON shape writes it (``AlbumObjectWriter``), with `extra` members.
    mutating func album(_ album: Album, extra: [(key: String, value: AlbumObjectWriter.Extra)]) {
        var writer = AlbumObjectWriter()
        writer.album(album, extra: extra)
        bytes.append(contentsOf: writer.take())
    }

    /// A whole number, or `null`.
    mutating func number(_ value: Int?) {
        if let value { bytes.append(contentsOf: String(value).utf8) } else { raw("null") }
    }
}
