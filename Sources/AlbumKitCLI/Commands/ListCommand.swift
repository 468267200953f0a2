import AlbumKit
import ArgumentParser

/// `albumkit list [--json]`: the albums in order.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the albums in order.",
        discussion: "Columns: current (*), position, title, artist, year, genre, cover state (stored, missing, failed, none).")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        try await global.withLibrary { library, _ in
            let rows = try await library.rows()
            let current = await library.memento.current
            print(json ? try AlbumJSON.list(rows, current: current) : AlbumTable.render(rows, current: current))
        }
    }
}
