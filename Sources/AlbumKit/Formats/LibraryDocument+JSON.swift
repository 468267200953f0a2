import Foundation

extension LibraryDocument {
    /// The document as JSON, written piece by piece — each album encoded on its own — so
    /// saving a large library never builds one tree of all of it in memory. The same keys,
    /// sorted, and the same values `JSONEncoder` would write for the whole document (a test
    /// holds the two to it).
    func streamedJSON() throws -> Data {
        var writer = JSONPieceWriter(capacity: albums.count * 256)
        writer.raw(#"{"albums":"#)
        try writer.list(albums) { try $0.value($1) }
        writer.raw(#","format":"#)
        try writer.value(Self.formatName)
        writer.raw(#","state":"#)
        try writer.value(state)
        writer.raw(#","version":\#(Self.currentVersion)}"#)
        return writer.data
    }
}

/// Appends JSON a piece at a time: raw punctuation, values through `JSONEncoder`, lists.
private struct JSONPieceWriter {
    private(set) var data = Data()
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    init(capacity: Int) { data.reserveCapacity(capacity) }

    mutating func raw(_ text: String) { data.append(contentsOf: text.utf8) }

    mutating func value<T: Encodable>(_ value: T) throws { data.append(try encoder.encode(value)) }

    /// `[item,item,…]`, one item a line.
    mutating func list<S: Sequence>(_ items: S, _ write: (inout Self, S.Element) throws -> Void) throws {
        raw("[")
        var first = true
        for item in items {
            raw(first ? "\n" : ",\n")
            first = false
            try write(&self, item)
        }
        raw("]")
    }
}
