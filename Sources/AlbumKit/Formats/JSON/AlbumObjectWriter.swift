/// The one JSON shape of an album that the command line (`list --json`, `show --json`), the
/// API and exports show: every field the album has, as album lists write it (``AlbumCoding``),
/// with a listing's own members (`position`, `cover`, …) merged in, keys sorted.
public struct AlbumObjectWriter {
    /// A listing's member beside the album's fields.
    public enum Extra: Sendable {
        /// A string, or null.
        case text(String?)
        /// A whole number, or null.
        case number(Int?)
    }

    private final class Buffer: @unchecked Sendable { var bytes: [UInt8] = [] }
    private let buffer = Buffer()
    private var output: JSONOutput

    /// A writer into memory.
    public init() {
        let buffer = buffer
        output = JSONOutput(sink: { buffer.bytes.append(contentsOf: $0) })
    }

    /// Text that needs no escaping (`[`, `,`), as it is.
    public mutating func raw(_ text: String) {
        try! output.flush()
        buffer.bytes.append(contentsOf: text.utf8)
    }

    /// A JSON string.
    public mutating func string(_ text: String?) {
        // Writing to memory cannot fail.
        if let text { try! output.string(text) } else { try! output.raw("null") }
    }

    /// `album` as an object, with `extra` members (their keys not the album's).
    public mutating func album(_ album: Album, extra: [(key: String, value: Extra)] = []) {
        let extra = extra.sorted { $0.key < $1.key }
        var next = extra.startIndex
        var first = true
        // Writing to memory cannot fail.
        func writeExtras(before name: String?) {
            while next < extra.endIndex, name.map({ extra[next].key < $0 }) ?? true {
                try! output.raw(first ? "{" : ",")
                first = false
                try! output.string(extra[next].key)
                try! output.raw(":")
                switch extra[next].value {
                case .text(let text): string(text)
                case .number(let number?): try! output.integer(Int64(number))
                case .number(nil): try! output.raw("null")
                }
                next += 1
            }
        }
        for (place, field) in AlbumField.sortedByName.enumerated() {
            writeExtras(before: field.name)
            try! output.field(at: place, of: album, first: &first)
        }
        writeExtras(before: nil)
        try! output.raw("}")
    }

    /// Everything written, taken out of the writer.
    public mutating func take() -> [UInt8] {
        try! output.flush()
        defer { buffer.bytes = [] }
        return buffer.bytes
    }
}
