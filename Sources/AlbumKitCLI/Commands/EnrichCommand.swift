import AlbumKit
import ArgumentParser

/// `albumkit enrich [QUERY…] [--dry-run] [--overwrite] [--offline]`.
struct EnrichCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrich",
        abstract: "Fill empty fields from MusicBrainz and Discogs (one undoable step).",
        discussion: """
            Looks each album the query selects (every album without one) up: its MusicBrainz release \
            (ids.musicbrainz, else a search match at plugins.musicbrainz.minScore), its Discogs release \
            (ids.discogs, with plugins.discogs.token). Fills genre, year, released, label, catalogNumber, \
            format, country, barcode, tags, tracks (when it has none) and ids. What a service answered is \
            remembered with the library and not asked again. When a service could not be asked about an \
            album, each such album is named, what the others gave is kept, and the exit status is 3.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Query terms, all of which must hold (see 'albumkit help queries').", valueName: "query"))
    var terms: [String] = []

    @Flag(help: "Print what would be filled, album by album and field by field; change nothing.") var dryRun = false
    @Flag(help: "Replace fields that have a value too.") var overwrite = false
    @Flag(help: "Send no request: use only what the services answered before.") var offline = false

    func run() async throws {
        let query = try AlbumQuery(terms: terms)
        let summary = try await global.withLibrary(progress: true) { library, _ in
            try await library.enrich(matching: query, overwrite: overwrite, offline: offline, dryRun: dryRun)
        }
        for note in summary.notes { Console.warning(note) }
        if dryRun {
            for enriched in summary.enriched {
                Console.out("\(enriched.position). \(enriched.album.artist) - \(enriched.album.title) (\(enriched.album.id))")
                for change in enriched.changes {
                    Console.out("  \(change.field): \(change.old.isEmpty ? "(empty)" : change.old) -> \(change.new.isEmpty ? "(empty)" : change.new)")
                }
            }
        }
        // An album both services failed on counts once.
        let failed = Set(summary.failures.map(\.album)).count
        let filled = summary.filled.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        Console.out(
            "Enrich: \(summary.albums) looked up, \(summary.enriched.count) \(dryRun ? "would be enriched" : "enriched")"
                + (filled.isEmpty ? "." : " (\(filled)).") + (failed == 0 ? "" : " \(failed) failed."))
        if let requests = RequestsLine.text(summary.requests) { Console.out(requests) }
        for failure in summary.failures { Console.out("  failed: \(failure.album): \(failure.reason)") }
        try DoneInPart.end(
            failed: failed, ("album could not be looked up", "albums could not be looked up"),
            kept: dryRun ? "nothing was changed" : "what the others gave is kept, as one step")
    }
}
