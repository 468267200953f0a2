import AlbumKit
import ArgumentParser

/// `albumkit undo`: take back the last change; fails when there is none.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Take back the last change.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let change = try await global.withLibrary { library, _ in try await library.undo() }
        print("Undid: \(HistoryDescription.describe(change))")
    }
}

/// `albumkit redo`: apply again the last undone change; fails when there is none.
struct RedoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "redo", abstract: "Apply again the last undone change.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let change = try await global.withLibrary { library, _ in try await library.redo() }
        print("Redid: \(HistoryDescription.describe(change))")
    }
}

/// Says in words what a step of history did.
enum HistoryDescription {
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
