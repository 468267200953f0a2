extension Array where Element == UInt8 {
    /// Appends `text` as a quoted JSON string, escaped as `JSONEncoder` does with
    /// `.withoutEscapingSlashes`: quote, backslash and control characters only. The one
    /// escaper of the library writer (``JSONOutput``) and of `serve`'s responses.
    public mutating func appendJSONString(_ text: String) {
        var text = text
        text.withUTF8 { appendJSONString(utf8: $0) }
    }

    /// Appends the UTF-8 text `utf8` as ``appendJSONString(_:)`` does.
    package mutating func appendJSONString(utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        // Most fields need no escaping: then they go in with one copy.
        if utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            for byte in utf8 { appendJSONEscaped(byte) }
        } else {
            append(contentsOf: utf8)
        }
        append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func appendJSONEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(contentsOf: [UInt8(ascii: "\\"), byte])
        case 0x08: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0x0A: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case ..<0x20:
            append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            append(contentsOf: [Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
        default: append(byte)
        }
    }
}
