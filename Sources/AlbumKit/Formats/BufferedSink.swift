/// Bytes handed to a sink (a file, an archive entry) through a fixed buffer, so that writing a
/// large document needs no more memory than the buffer: what the library writers
/// (``JSONOutput``, ``XMLPropertyListOutput``) write through.
struct BufferedSink {
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var buffer: [UInt8] = []
    private static let capacity = 256 * 1024

    /// Bytes handed to `sink` a buffer at a time.
    init(_ sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
        buffer.reserveCapacity(Self.capacity + 1024)
    }

    /// Bytes written to the file `descriptor`; `path` names it in errors.
    init(descriptor: Int32, path: String) {
        self.init { try AtomicFile.writeAll(descriptor, $0, path: path) }
    }

    /// Appends what `append` adds to the buffer, handing the buffer on once it is full.
    mutating func write(_ append: (inout [UInt8]) -> Void) throws {
        append(&buffer)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Text that needs no escaping.
    mutating func raw(_ text: StaticString) throws {
        try write { $0.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
    }

    /// `value` in decimal.
    mutating func integer(_ value: Int64) throws {
        var digits = String(value)
        try write { buffer in digits.withUTF8 { buffer.append(contentsOf: $0) } }
    }

    /// Hands on what is buffered.
    mutating func flush() throws {
        try buffer.withUnsafeBytes { try sink($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
