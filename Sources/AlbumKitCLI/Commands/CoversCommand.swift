import AlbumKit
import ArgumentParser

/// `albumkit covers fetch|status|prune`.
struct CoversCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "covers", abstract: "Fetch, inspect and prune the stored covers.",
        subcommands: [Fetch.self, Status.self, Prune.self])

    /// `albumkit covers fetch [--all | POS…]`.
    struct Fetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch covers that are not stored yet (or those named) through covers.fetchers.",
            discussion: "Exits non-zero when any cover could not be fetched. Covers already stored are not fetched again.")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Every album with a cover reference, stored ones included (they are not fetched again).") var all = false
        @Argument(help: "Positions or ids of the albums whose covers to fetch.") var albums: [String] = []

        func validate() throws {
            if all && !albums.isEmpty { throw ValidationError("give --all or albums, not both") }
        }

        func run() async throws {
            let summary = try await global.withLibrary(progress: true) { library, context in
                let chosen = try await choose(in: library)
                return try await context.fetchingCovers(for: library) { _ in
                    for album in chosen { library.hub.publish(.coverRequested(album.id, reference: album.coverUrl!)) }
                }
            }
            print("Covers: \(summary.fetched) fetched, \(summary.cached) already stored, \(summary.failures.count) failed.")
            for failure in summary.failures { print("  failed: \(failure.album) \(failure.reference): \(failure.reason)") }
            if !summary.failures.isEmpty {
                throw AlbumKitError(.unsupported, "\(summary.failures.count) cover\(summary.failures.count == 1 ? "" : "s") could not be fetched")
            }
        }

        private func choose(in library: Library) async throws -> [Album] {
            if !albums.isEmpty {
                return try await albums.asyncMap { try await library.album(AlbumReference($0)).album }.filter { $0.coverUrl != nil }
            }
            var chosen: [Album] = []
            for album in await library.albums where album.coverUrl != nil {
                let state = await library.coverState(of: album)
                if all || state != .stored { chosen.append(album) }
            }
            return chosen
        }
    }

    /// `albumkit covers status`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show each album's cover: stored, missing, failed (with the last error) or none.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await global.withLibrary { library, _ in
                let listed = await library.listed()
                let resolutions = await library.snapshot.state.covers
                Console.out(rendered: CoverStatusTable.render(
                    listed, resolutions: resolutions, width: Console.width(.output), colour: Console.usesColour(.output)))
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

extension Array {
    /// `transform` applied to each element in order, awaiting each.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
