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
        buffer.appendJSONString(text)
        try flushIfFull()
    }

    /// A cover reference's text as a quoted JSON string (a stored cover's made on the stack).
    mutating func string(_ reference: CoverReference) throws {
        reference.withUTF8 { buffer.appendJSONString(utf8: $0) }
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
}
