import AlbumKit
import ArgumentParser

/// `albumkit add --title T --artist A [--genre G] [--year Y] [--cover URL] [--set NAME=VALUE…] [--at POS] [--yes]`.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add one album.",
        discussion: """
            An album already in the library (the same artist, title and year, ignoring case, as import's \
            duplicates) is added only when confirmed on a terminal, or with --yes.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "The title (required).") var title: String
    @Option(help: "The artist (required).") var artist: String
    @Option(help: "The genre.") var genre = ""
    @Option(parsing: .unconditional, help: "The year: 1 to 4 digits.") var year = ""
    @Option(help: ArgumentHelp("The cover: http(s)://…, file://… or covers/<sha256>.<ext>.", valueName: "url")) var cover: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Insert at this position (default: at the end).", valueName: "pos")) var at: Int?
    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue, help: FieldAssignment.setHelp)
    var assignments: [String] = []
    @Flag(help: "Add it even when the library holds the same album.") var yes = false

    func validate() throws { _ = try record() }

    /// The album to add, from the options and `--set`.
    private func record() throws -> AlbumRecord {
        var patch = AlbumPatch()
        try FieldAssignment.apply(sets: assignments, unsets: [], to: &patch)
        let record = AlbumRecord(title: title, artist: artist, genre: genre, year: year, coverUrl: cover)
        guard !patch.isEmpty else { return record }
        do {
            let album = try patch.applied(to: record.validated(newID: .generate(), label: "'\(title)'"))
            return AlbumRecord(
                title: album.title, artist: album.artist, genre: album.genre, year: album.year, coverUrl: album.coverUrl,
                details: album.details)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        try await global.withLibrary { library, context in
            let record = try record()
            try await confirmIfDuplicate(record, in: library)
            guard let cover, !CoverReference.isInFolder(cover) else {
                return report(try await library.add(record, at: at))
            }
            let summary = try await library.fetchingCovers {
                report(try await library.add(record, at: at))
            }.covers
            await context.warn(about: summary, in: library)
        }
    }

    /// Import's duplicate rule: the same artist, title and year, ignoring case.
    private func confirmIfDuplicate(_ record: AlbumRecord, in library: Library) async throws {
        let album = try record.validated(newID: .generate(), label: "'\(record.title)'")
        guard let (existing, position) = try await library.duplicate(of: album) else { return }
        let year = existing.year.isEmpty ? "" : " (\(existing.year))"
        let duplicate = "'\(existing.title)' by \(existing.artist)\(year) is already in the library at position \(position)"
        try Confirmation.require(
            yes: yes, warning: duplicate, question: "Add it anyway?", refusal: "\(duplicate); add --yes to add it anyway")
    }

    private func report(_ added: (album: Album, position: Int)) {
        let (album, position) = added
        Console.out("Added '\(album.title)' by \(album.artist) at position \(position) (id \(album.id)).")
    }
}
