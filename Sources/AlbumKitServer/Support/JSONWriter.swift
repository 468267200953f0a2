/// Writes the hot responses (pages of albums) as JSON bytes directly: Foundation's
/// `JSONEncoder` spent two thirds of a `GET /api/albums` in generic encoding and key
/// sorting. Strings are escaped as RFC 8259 asks (quote, backslash, control characters);
/// everything else goes out as its UTF-8 bytes.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Punctuation and keys the caller spells out (`{"albums":[`).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A JSON string.
    mutating func string(_ text: String) {
        var text = text
        bytes.append(0x22)
        text.withUTF8 { utf8 in
            // Most fields need no escaping: then they go in with one copy.
            guard utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return bytes.append(contentsOf: utf8) }
            for byte in utf8 { appendEscaped(byte) }
        }
        bytes.append(0x22)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
        case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
        case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
        case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
        case ..<0x20: bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
        default: bytes.append(byte)
        }
    }

    /// A JSON string, or `null`.
    mutating func string(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    /// A whole number, or `null`.
    mutating func number(_ value: Int?) {
        if let value { bytes.append(contentsOf: String(value).utf8) } else { raw("null") }
    }
}
