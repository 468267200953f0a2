import Foundation

/// A history step as JSON through the streaming writer: a step holds every album a change
/// updated whole, before and after, and `JSONEncoder` held its whole tree and text at once —
/// the peak of a `covers fetch` that found a thousand covers (BENCHMARKS.md, covers by lookup).
extension HistoryStep {
    /// The step as JSON, keys sorted, with the values `JSONEncoder` writes (a database's step row).
    package var json: String { JSONOutput.countedText { try $0.historyStep(self) } }

    /// Writes the step as ``json`` to the file `descriptor` (`path` names it in errors),
    /// a buffer at a time.
    func writeJSON(to descriptor: Int32, path: String) throws {
        var output = JSONOutput(descriptor: descriptor, path: path)
        try output.historyStep(self)
        try output.flush()
    }
}

extension JSONOutput {
    /// A history step, keys sorted, as its `encode(to:)` writes it.
    mutating func historyStep(_ step: HistoryStep) throws {
        try raw("{")
        if let appended = step.appended {
            try raw(#""appended":{"count":"#)
            try integer(Int64(appended.count))
            try raw(#","first":"#)
            try string(appended.first.rawValue)
            try raw(#","index":"#)
            try integer(Int64(appended.index))
            try raw(#","last":"#)
            try string(appended.last.rawValue)
            try raw("},")
        }
        try raw(#""edits":["#)
        for (index, edit) in step.edits.enumerated() {
            if index > 0 { try raw(",") }
            try self.edit(edit)
        }
        try raw(#"],"label":"#)
        try string(step.label)
        try raw("}")
    }

    /// An edit, keys sorted, as ``LibraryEdit``'s `encode(to:)` writes it.
    private mutating func edit(_ edit: LibraryEdit) throws {
        switch edit {
        case .insert(let album, let index), .remove(let album, let index):
            try raw(#"{"album":"#)
            try self.album(album)
            try raw(#","index":"#)
            try integer(Int64(index))
            if case .insert = edit { try raw(#","op":"insert"}"#) } else { try raw(#","op":"remove"}"#) }
        case .update(let before, let after):
            try raw(#"{"after":"#)
            try album(after)
            try raw(#","before":"#)
            try album(before)
            try raw(#","op":"update"}"#)
        case .move(let id, let from, let to):
            try raw(#"{"from":"#)
            try integer(Int64(from))
            try raw(#","id":"#)
            try string(id.rawValue)
            try raw(#","op":"move","to":"#)
            try integer(Int64(to))
            try raw("}")
        }
    }
}
