import AlbumKit
import ArgumentParser

/// `albumkit update POS|ID [--title …] [--artist …] [--genre …] [--year …] [--cover …]`.
struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update", abstract: "Change an album's fields.", discussion: "--cover '' removes the cover.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A position (1-based) or an album id.") var album: String
    @Option(help: "A new title.") var title: String?
    @Option(help: "A new artist.") var artist: String?
    @Option(help: "A new genre.") var genre: String?
    @Option(help: "A new year.") var year: String?
    @Option(help: ArgumentHelp("A new cover reference ('' for none).", valueName: "url")) var cover: String?

    func validate() throws {
        guard [title, artist, genre, year, cover].contains(where: { $0 != nil }) else {
            throw ValidationError("name at least one field to change (--title, --artist, --genre, --year, --cover)")
        }
    }

    func run() async throws {
        try await global.withLibrary { library, context in
            let patch = AlbumPatch(title: title, artist: artist, genre: genre, year: year, coverUrl: cover)
            let reference = AlbumReference(self.album)
            guard let cover, !cover.isEmpty, !cover.hasPrefix("covers/") else {
                let album = try await library.update(reference, patch)
                return print("Updated '\(album.title)' by \(album.artist).")
            }
            let summary = try await library.fetchingCovers {
                let album = try await library.update(reference, patch)
                print("Updated '\(album.title)' by \(album.artist).")
            }
            context.warn(about: summary)
        }
    }
}
