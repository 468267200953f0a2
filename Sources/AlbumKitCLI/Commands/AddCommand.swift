import AlbumKit
import ArgumentParser

/// `albumkit add --title T --artist A [--genre G] [--year Y] [--cover URL] [--at POS]`.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add one album.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "The title (required).") var title: String
    @Option(help: "The artist (required).") var artist: String
    @Option(help: "The genre.") var genre = ""
    @Option(help: "The year: 1 to 4 digits.") var year = ""
    @Option(help: ArgumentHelp("The cover: http(s)://…, file://… or covers/<sha256>.<ext>.", valueName: "url")) var cover: String?
    @Option(help: ArgumentHelp("Insert at this position (default: at the end).", valueName: "pos")) var at: Int?

    func run() async throws {
        try await global.withLibrary { library, context in
            let record = AlbumRecord(title: title, artist: artist, genre: genre, year: year, coverUrl: cover)
            guard let cover, !cover.hasPrefix("covers/") else {
                return try await report(try await library.add(record, at: at), in: library)
            }
            let summary = try await library.fetchingCovers {
                try await report(try await library.add(record, at: at), in: library)
            }
            context.warn(about: summary)
        }
    }

    private func report(_ album: Album, in library: Library) async throws {
        let position = try await library.album(.id(album.id)).position
        print("Added '\(album.title)' by \(album.artist) at position \(position) (id \(album.id)).")
    }
}
