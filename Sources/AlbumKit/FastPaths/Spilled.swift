import Foundation

/// A value that a scratch file's records keep: written with a ``SpillEncoder``, read back
/// with a ``SpillDecoder`` by the same process.
protocol Spillable {
    /// Writes the value's fields.
    func spill(into encoder: inout SpillEncoder)
    /// The value whose fields ``spill(into:)`` wrote.
    init(unspilling decoder: inout SpillDecoder) throws
}

/// Values written to a scratch file one at a time and then read back in order, as often as
/// needed: work that takes each of 100 000 albums in turn holds one at a time, not all.
struct Spilled<Element: Spillable>: Sendable {
    /// How many values were written.
    let count: Int
    private let file: ScratchFile
    private let end: Int

    /// A reader of the values, from the first.
    func reader() -> Reader { Reader(records: SpillReader(file: file, end: end)) }

    /// Reads the values in order.
    struct Reader {
        fileprivate var records: SpillReader

        /// The next value, or nil after the last.
        mutating func next() throws -> Element? { try records.next { try Element(unspilling: &$0) } }
    }

    /// Writes values one at a time into a new scratch file.
    struct Writer {
        private var records: SpillWriter

        /// A writer of a new scratch file in `folder` (see ``ScratchFile/init(in:)``).
        init(in folder: URL) throws {
            records = SpillWriter(file: try ScratchFile(in: folder))
        }

        /// How many values were written.
        var count: Int { records.count }

        /// Writes `value` after those before; returns where it starts, for ``value(at:)``.
        @discardableResult
        mutating func append(_ value: Element) throws -> Int {
            let offset = records.endOffset
            try records.append { value.spill(into: &$0) }
            return offset
        }

        /// The value written at `offset` (what ``append(_:)`` returned), read on its own: for
        /// values that use no slots.
        func value(at offset: Int) throws -> Element { try records.record(at: offset) { try Element(unspilling: &$0) } }

        /// The values, once the last is written.
        consuming func finish() throws -> Spilled {
            let end = try records.flush()
            return Spilled(count: records.count, file: records.file, end: end)
        }
    }

    /// Whether both are the same scratch file.
    func isSame(as other: Spilled) -> Bool { file === other.file && count == other.count }

    /// Hashes the scratch file's identity.
    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(file))
        hasher.combine(count)
    }
}
