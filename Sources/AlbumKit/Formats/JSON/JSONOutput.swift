/// JSON text handed to a sink (a file, an archive entry) through a fixed buffer, so writing a
/// large document needs no more memory than the buffer. Strings are escaped as `JSONEncoder`
/// does with `.withoutEscapingSlashes`: quote, backslash and control characters only.
struct JSONOutput {
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var buffer: [UInt8] = []
    private static let capacity = 256 * 1024

    /// Output handed to `sink` a buffer at a time.
    init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
        buffer.reserveCapacity(Self.capacity + 1024)
    }

    /// Output written to the file `descriptor`; `path` names it in errors.
    init(descriptor: Int32, path: String) {
        self.init { try AtomicFile.writeAll(descriptor, $0, path: path) }
    }

    /// Punctuation and other text that needs no escaping.
    mutating func raw(_ text: StaticString) throws {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        try flushIfFull()
    }

    /// `text` as a quoted JSON string.
    mutating func string(_ text: String) throws {
        buffer.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            if !utf8.contains(where: Self.needsEscape) {
                buffer.append(contentsOf: utf8)
            } else {
                for byte in utf8 { append(escaping: byte) }
            }
        }
        buffer.append(UInt8(ascii: "\""))
        try flushIfFull()
    }

    /// `value` or null.
    mutating func string(orNull text: String?) throws {
        if let text { try string(text) } else { try raw("null") }
    }

    /// `value` in decimal.
    mutating func integer(_ value: Int64) throws {
        var digits = String(value)
        digits.withUTF8 { buffer.append(contentsOf: $0) }
        try flushIfFull()
    }

    /// Writes what is buffered.
    mutating func flush() throws {
        try buffer.withUnsafeBytes { try sink($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func flushIfFull() throws {
        if buffer.count >= Self.capacity { try flush() }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func append(escaping byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer += [UInt8(ascii: "\\"), byte]
        case 0x08: buffer += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
        case 0x0C: buffer += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
        case 0x0A: buffer += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x0D: buffer += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case 0x09: buffer += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case ..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            buffer += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        default: buffer.append(byte)
        }
    }
}
