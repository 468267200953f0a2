import Foundation

/// The memento as JSON through the strict reader and the streaming writer of the file
/// libraries, for a database that keeps it in a column: every command of such a library
/// reads it, every change writes it, and its lookup cache (an answer for each album looked
/// up) makes it large — `JSONDecoder` and `JSONEncoder` then cost most of a command.
extension LibraryState {
    /// The memento in `data`, as ``json`` or `JSONEncoder` wrote it.
    package init(json data: Data) throws {
        self = try data.withUnsafeBytes { raw in
            var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
            let state = try cursor.libraryState()
            try cursor.end()
            return state
        }
    }

    /// The memento as JSON, keys sorted, as `JSONEncoder` writes it.
    package var json: String { JSONOutput.text { try $0.state(self) } }
}
