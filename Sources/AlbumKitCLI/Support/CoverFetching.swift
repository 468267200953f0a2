import AlbumKit

extension CommandContext {
    /// Whether `covers.fetchers` names `http` and this binary has it: then `add --cover` and
    /// `update --cover` fetch the cover at once.
    var fetchesRemoteCovers: Bool {
        configuration.covers.fetchers.contains("http") && registry.coverFetchers["http"] != nil
    }

    /// Runs `body` with a cover service subscribed to `library`'s requests, then waits for
    /// every fetch it started and returns what happened.
    func fetchingCovers(
        for library: Library, _ body: (CoverService) async throws -> Void
    ) async throws -> CoverFetchSummary {
        let fetchers = try registry.makeCoverFetchers(CoverFetcherContext(configuration: configuration, store: library.storage.covers))
        let service = CoverService(library: library, fetchers: fetchers, covers: configuration.covers)
        let subscription = service.attach()
        defer { subscription.cancel() }
        do {
            try await body(service)
        } catch {
            _ = try? await service.finish()
            throw error
        }
        return try await service.finish()
    }

    /// Prints a warning for each cover that could not be fetched, naming its album by title.
    func warn(about summary: CoverFetchSummary, in library: Library) async {
        guard !summary.failures.isEmpty else { return }
        let titles = Dictionary(await library.albums.map { ($0.id, $0.title) }) { first, _ in first }
        for failure in summary.failures {
            Console.warning("cover of '\(titles[failure.album] ?? failure.album.rawValue)': \(failure.reason)")
        }
    }
}
