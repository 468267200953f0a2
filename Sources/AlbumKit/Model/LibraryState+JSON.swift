import Foundation

/// The memento as JSON through the strict reader and the streaming writer of the file
/// libraries, for a database that keeps it in a column: every command of such a library
/// reads it, every change writes it, and its lookup cache (an answer for each album looked
/// up) makes it large — `JSONDecoder` and `JSONEncoder` then cost most of a command.
extension LibraryState {
    /// The memento in `data`, as ``json`` or `JSONEncoder` wrote it.
    package init(json data: Data) throws {
        self = try wholeJSON(data) { try $0.libraryState() }
    }

    /// The memento as JSON, keys sorted, as `JSONEncoder` writes it.
    package var json: String { JSONOutput.text { try $0.state(self) } }
}

/// One lookup answer as JSON through the same reader and writer, for a database that keeps
/// each answer in a row of its own (read by key when an album is looked up).
extension LookupAnswer {
    /// The answer in `data`, as ``json`` or `JSONEncoder` wrote it.
    package init(json data: Data) throws {
        self = try wholeJSON(data) { try $0.lookupAnswer() }
    }

    /// The answer as JSON, keys sorted, as `JSONEncoder` writes it.
    package var json: String { JSONOutput.text { try $0.lookupAnswer(self) } }
}

/// The value `read` reads from `data`, which must hold nothing after it.
private func wholeJSON<Value>(_ data: Data, _ read: (inout JSONCursor) throws -> Value) throws -> Value {
    try data.withUnsafeBytes { raw in
        var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
        let value = try read(&cursor)
        try cursor.end()
        return value
    }
}
