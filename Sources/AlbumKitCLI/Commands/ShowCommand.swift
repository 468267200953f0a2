import AlbumKit
import ArgumentParser

/// `albumkit show POS|ID [--json]`: one album.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one album.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A position (1-based) or an album id.")
    var album: String

    @Flag(help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        try await global.withLibrary { library, _ in
            let row = try await library.detailRow(AlbumReference(album))
            let isCurrent = await library.memento.current == row.album.id
            print(json ? try AlbumJSON.single(row) : AlbumTable.detail(row, isCurrent: isCurrent))
        }
    }
}
