/// JSON text handed to a sink (a file, an archive entry) through a fixed buffer, so writing a
/// large document needs no more memory than the buffer. Strings are escaped as `JSONEncoder`
/// does with `.withoutEscapingSlashes`: quote, backslash and control characters only.
struct JSONOutput {
    private var sink: BufferedSink

    /// Output handed to `sink` a buffer at a time.
    init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = BufferedSink(sink)
    }

    /// Output written to the file `descriptor`; `path` names it in errors.
    init(descriptor: Int32, path: String) {
        sink = BufferedSink(descriptor: descriptor, path: path)
    }

    /// Punctuation and other text that needs no escaping.
    mutating func raw(_ text: StaticString) throws { try sink.raw(text) }

    /// JSON text written before, as it is.
    mutating func bytes(_ text: UnsafeBufferPointer<UInt8>) throws {
        try sink.write { $0.append(contentsOf: text) }
    }

    /// `text` as a quoted JSON string.
    mutating func string(_ text: String) throws {
        try sink.write { $0.appendJSONString(text) }
    }

    /// A cover reference's text as a quoted JSON string (a stored cover's made on the stack).
    mutating func string(_ reference: CoverReference) throws {
        try sink.write { buffer in reference.withUTF8 { buffer.appendJSONString(utf8: $0) } }
    }

    /// `value` or null.
    mutating func string(orNull text: String?) throws {
        if let text { try string(text) } else { try raw("null") }
    }

    /// `value` in decimal.
    mutating func integer(_ value: Int64) throws { try sink.integer(value) }

    /// `value` as `JSONEncoder` writes a `Double`: a whole number without `.0`.
    mutating func number(_ value: Double) throws {
        try sink.write { $0.append(contentsOf: ScalarText.text(of: value).utf8) }
    }

    /// Writes what is buffered.
    mutating func flush() throws { try sink.flush() }
}

extension JSONOutput {
    /// What `write` writes, as text in memory (where writing cannot fail).
    static func text(_ write: (inout JSONOutput) throws -> Void) -> String {
        final class Bytes: @unchecked Sendable { var bytes: [UInt8] = [] }
        let text = Bytes()
        var output = JSONOutput(sink: { text.bytes.append(contentsOf: $0) })
        try! write(&output)
        try! output.flush()
        return String(decoding: text.bytes, as: UTF8.self)
    }

    /// What `write` writes, as text in memory, written twice: once to count its bytes, then
    /// into a string of exactly that many. For a large document (a database's history step
    /// of a thousand albums, 2.4 MB), ``text(_:)`` would hold its bytes — grown by doubling,
    /// to 4.3 MB — and the string made of them at once: 6.7 MB of heap at the peak of
    /// `covers fetch` (BENCHMARKS.md, covers by lookup). `write` must write the same bytes
    /// each time.
    static func countedText(_ write: (inout JSONOutput) throws -> Void) -> String {
        final class Count: @unchecked Sendable { var bytes = 0 }
        let count = Count()
        var counting = JSONOutput(sink: { count.bytes += $0.count })
        try! write(&counting)
        try! counting.flush()
        return String(unsafeUninitializedCapacity: count.bytes) { text in
            let filled = Count()
            var output = JSONOutput(sink: { chunk in
                precondition(filled.bytes + chunk.count <= text.count, "the second writing of a document is longer than the first")
                UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(text)[filled.bytes...]).copyMemory(from: chunk)
                filled.bytes += chunk.count
            })
            try! write(&output)
            try! output.flush()
            return filled.bytes
        }
    }
}
