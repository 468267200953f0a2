import AlbumKit
import ArgumentParser

/// `albumkit undo`: take back the last change; fails when there is none.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Take back the last change.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await HistoryDescription.walk(global, forward: false)
    }
}

/// `albumkit redo`: apply again the last undone change; fails when there is none.
struct RedoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "redo", abstract: "Apply again the last undone change.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await HistoryDescription.walk(global, forward: true)
    }
}

/// Walks the history and says in words what a step did.
enum HistoryDescription {
    /// Undoes (or redoes, `forward`) one step and prints what it was.
    static func walk(_ global: GlobalOptions, forward: Bool) async throws {
        let change = try await global.withLibrary { library, _ in
            forward ? try await library.redo() : try await library.undo()
        }
        print("\(forward ? "Redid" : "Undid"): \(describe(change))")
    }

    static func describe(_ change: LibraryChange) -> String {
        let details = change.edits.prefix(5).map { edit -> String in
            switch edit {
            case .insert(let album, let index): "add '\(album.title)' at \(index + 1)"
            case .remove(let album, let index): "remove '\(album.title)' from \(index + 1)"
            case .update(_, let after): "update '\(after.title)'"
            case .move(_, let from, let to): "move \(from + 1) to \(to + 1)"
            }
        }
        let more = change.edits.count > 5 ? ", and \(change.edits.count - 5) more" : ""
        return "\(change.label) (\(details.joined(separator: ", "))\(more))"
    }
}
