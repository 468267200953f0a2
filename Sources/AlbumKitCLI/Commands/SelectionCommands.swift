import AlbumKit
import ArgumentParser

/// `albumkit select ALBUM`: make an album current (remembered across runs).
struct SelectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "select", abstract: "Make an album the current one.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: AlbumWords.help) var album: [String] = []

    func validate() throws {
        guard !album.isEmpty else { throw ValidationError("name the album to select") }
    }

    func run() async throws {
        let album = try await global.withLibrary { library, _ in
            try await library.select(.id(try await library.resolve(AlbumReference(words: self.album)).album.id))
        }
        Console.out("Current album: '\(album.title)' by \(album.artist).")
    }
}

/// `albumkit current [--json]`: print the current album.
struct CurrentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "current", abstract: "Print the current album.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print the stable JSON form.") var json = false

    func run() async throws {
        try await global.withLibrary { library, _ in
            guard let album = try await library.currentAlbum() else {
                return json ? Console.out(rendered: [try AlbumJSON.single(nil)]) : Console.out("No current album.")
            }
            let row = try await library.detailRow(.id(album.id))
            if json {
                Console.out(rendered: [try AlbumJSON.single(row)])
            } else {
                Console.out(AlbumTable.detail(row, isCurrent: true))
            }
        }
    }
}
