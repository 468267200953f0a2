import AlbumKit
import ArgumentParser

/// `albumkit show ALBUM [--json]`: one album.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one album.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: AlbumWords.help)
    var album: [String] = []

    @Flag(help: "Print the stable JSON form.")
    var json = false

    func validate() throws {
        guard !album.isEmpty else { throw ValidationError("name the album to show") }
    }

    func run() async throws {
        try await global.withLibrary { library, _ in
            let row = try await library.detailRow(AlbumReference(words: album))
            let isCurrent = await library.memento.current == row.album.id
            if json {
                Console.out(rendered: [try AlbumJSON.single(row)])
            } else {
                Console.out(AlbumTable.detail(row, isCurrent: isCurrent))
            }
        }
    }
}
