import AlbumKit
import ArgumentParser

/// `albumkit move ALBUM --to POS` (alias `mv`).
struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move an album to another position (undoable).", aliases: ["mv"])

    @OptionGroup var global: GlobalOptions
    @Argument(help: AlbumWords.help) var album: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp("The new position.", valueName: "pos")) var to: Int

    func validate() throws {
        guard !album.isEmpty else { throw ValidationError("name the album to move") }
    }

    func run() async throws {
        try await global.withLibrary { library, _ in
            let listed = try await library.resolve(AlbumReference(words: album))
            try await library.move(.id(listed.album.id), to: to)
            Console.out("Moved '\(listed.album.title)' from \(listed.position) to \(to).")
        }
    }
}
