import AlbumKit
import ArgumentParser

/// `albumkit undo`: take back the last change; fails when there is none.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Take back the last change.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await HistoryWalk.step(global, forward: false)
    }
}

/// `albumkit redo`: apply again the last undone change; fails when there is none.
struct RedoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "redo", abstract: "Apply again the last undone change.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await HistoryWalk.step(global, forward: true)
    }
}

/// Walks the history one step and says in words what that step was.
enum HistoryWalk {
    /// Undoes (or redoes, `forward`) one step and prints it: `Undid: moved 'Low' from 7 to 1`.
    static func step(_ global: GlobalOptions, forward: Bool) async throws {
        let (change, titles) = try await global.withLibrary { library, _ in
            let change = forward ? try await library.redo() : try await library.undo()
            // Only moves name albums by id: look up those, not the whole library.
            var titles: [AlbumID: String] = [:]
            for case .move(let id, _, _) in change.edits { titles[id] = try? await library.album(.id(id)).album.title }
            return (change, titles)
        }
        Console.out("\(forward ? "Redid" : "Undid"): \(ChangeDescription.describe(change, titles: titles))")
    }
}
