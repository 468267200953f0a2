import AlbumKit
import ArgumentParser

/// `albumkit select POS|ID`: make an album current (remembered across runs).
struct SelectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "select", abstract: "Make an album the current one.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A position (1-based) or an album id.") var album: String

    func run() async throws {
        let album = try await global.withLibrary { library, _ in try await library.select(AlbumReference(self.album)) }
        print("Current album: '\(album.title)' by \(album.artist).")
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
                print(json ? try AlbumJSON.single(nil) : "No current album.")
                return
            }
            let row = try await library.detailRow(.id(album.id))
            print(json ? try AlbumJSON.single(row) : AlbumTable.detail(row, isCurrent: true))
        }
    }
}
