import AlbumKit
import ArgumentParser

/// `albumkit covers fetch|status|prune`.
struct CoversCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "covers", abstract: "Fetch, inspect and prune the stored covers.",
        subcommands: [Fetch.self, Status.self, Prune.self])

    /// `albumkit covers fetch [--all | POS…]`.
    struct Fetch: AsyncParsableCommand, FlatMemoryCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch covers that are not stored yet (or those named) through covers.fetchers.",
            discussion: "Covers already stored are not fetched again. When some covers could not be fetched, the others are kept, each failure is named with its reason, and the exit status is 3.")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Every album with a cover reference, stored ones included (they are not fetched again).") var all = false
        @Flag(help: "Send no request: covers come only from the store and from what the lookup services answered before.") var offline = false
        @Argument(help: "Positions or ids of the albums whose covers to fetch.") var albums: [String] = []

        func validate() throws {
            if all && !albums.isEmpty { throw ValidationError("give --all or albums, not both") }
        }

        func run() async throws {
            let summary = try await global.withLibrary(progress: true) { library, _ in
                try await library.fetchCovers(of: albums.isEmpty ? nil : albums.map(AlbumReference.init), all: all, offline: offline)
            }
            for note in summary.notes { Console.warning(note) }
            print("Covers: \(summary.fetched) fetched, \(summary.cached) already stored, \(summary.failures.count) failed.")
            if let requests = RequestsLine.text(summary.requests) { print(requests) }
            for failure in summary.failures {
                // An album that names no cover was looked up: its reason says what was asked.
                print("  failed: \(failure.album)\(failure.reference.isEmpty ? "" : " \(failure.reference)"): \(failure.reason)")
            }
            try DoneInPart.end(
                failed: summary.failures.count, ("cover could not be fetched", "covers could not be fetched"),
                kept: "the covers fetched are kept, and each failure's reason")
        }
    }

    /// `albumkit covers status`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show each album's cover: stored, missing, failed (with the last error) or none.",
            discussion: "With lookup services in covers.fetchers, says which one found a cover, or what each answered about an album without one.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await global.withLibrary { library, _ in
                let listed = try await library.listed()
                let service = try await library.makeCoverService()
                let resolutions = await library.memento.covers
                let lookups = try await library.lookupAnswers(listed.flatMap { service.lookupKeys(for: $0.album) })
                Console.out(rendered: CoverStatusTable.render(
                    listed, resolutions: resolutions, lookups: { service.lookupAnswers(for: $0, in: lookups) },
                    width: Console.width(.output), colour: Console.usesColour(.output)))
                Console.out(CoverStatusTable.summary(listed))
            }
        }
    }

    /// `albumkit covers prune`.
    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove stored covers that no album (nor the undo history) uses.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let (removed, bytes) = try await global.withLibrary { library, _ in try await library.pruneCovers() }
            Console.out("Removed \(removed) unused cover\(removed == 1 ? "" : "s"), freeing \(ByteCount.format(bytes)).")
        }
    }
}
