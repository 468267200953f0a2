import AlbumKit
import ArgumentParser

/// `albumkit remove POS|ID…`: one undoable step, positions as listed before the command.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove albums (one undoable step).",
        discussion: "Positions are taken as listed before the command: 'remove 1 3' removes the first and the third.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Positions (1-based) or album ids.") var albums: [String]

    func validate() throws {
        guard !albums.isEmpty else { throw ValidationError("name at least one album to remove") }
    }

    func run() async throws {
        try await global.withLibrary { library, _ in
            let removed = try await library.remove(albums.map(AlbumReference.init))
            for album in removed { print("Removed '\(album.title)' by \(album.artist).") }
        }
    }
}
