import AlbumKit
import ArgumentParser

/// `albumkit remove ALBUMS… [--yes]` (alias `rm`): one undoable step, positions as listed
/// before the command.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove albums (one undoable step).",
        discussion: """
            Albums are positions, ids or unique id prefixes ('remove 1 3' removes the first and the third as \
            listed before the command), or else a query ('remove artist:bowie ^year:1977'); a query that picks \
            more than one album lists them and asks first (--yes answers for you).
            """,
        aliases: ["rm"])

    @OptionGroup var global: GlobalOptions
    @Argument(help: AlbumWords.helpForSeveral) var albums: [String] = []
    @Flag(help: "Remove every album a query picks without asking.") var yes = false

    func validate() throws {
        guard !albums.isEmpty else { throw ValidationError("name at least one album to remove") }
    }

    func run() async throws {
        try await global.withLibrary { library, _ in
            let selection = try await library.choose(albums)
            if selection.byQuery && selection.albums.count > 1 {
                Console.out(
                    (["This removes \(selection.albums.count) albums:"] + selection.albums.map { "  \($0.position)  '\($0.album.title)' by \($0.album.artist)" })
                        .joined(separator: "\n"))
                try Confirmation.require(
                    yes: yes, question: "Remove these \(selection.albums.count) albums?",
                    refusal: "the query picks \(selection.albums.count) albums; add --yes to remove them all")
            }
            let removed = try await library.remove(selection.albums.map { .id($0.album.id) })
            for album in removed { Console.out("Removed '\(album.title)' by \(album.artist).") }
        }
    }
}
