import AlbumKit
import ArgumentParser

/// `albumkit move POS|ID --to POS`.
struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move an album to another position (undoable).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A position (1-based) or an album id.") var album: String
    @Option(help: ArgumentHelp("The new position.", valueName: "pos")) var to: Int

    func run() async throws {
        try await global.withLibrary { library, _ in
            try await library.move(AlbumReference(album), to: to)
            let moved = try await library.album(.position(to)).album
            print("Moved '\(moved.title)' to position \(to).")
        }
    }
}
