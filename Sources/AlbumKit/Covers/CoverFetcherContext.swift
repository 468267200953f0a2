/// What a ``CoverFetcherFactory`` builds a fetcher from: the configuration and the store of
/// the library the covers are for.
public struct CoverFetcherContext: Sendable {
    public var configuration: Configuration
    public var store: any CoverStore

    public init(configuration: Configuration, store: any CoverStore) {
        self.configuration = configuration
        self.store = store
    }
}

extension AdapterRegistry {
    /// The fetcher chain `covers.fetchers` names, in its order. An unknown name is an error
    /// naming the registered ones.
    public func makeCoverFetchers(_ context: CoverFetcherContext) throws -> [any CoverFetcher] {
        try (context.configuration.covers.fetchers ?? coverFetcherOrder).map { name in
            guard let factory = coverFetchers[name] else {
                throw AlbumKitError(.configuration, "unknown cover fetcher '\(name)' in covers.fetchers (from \(context.configuration.origin(of: "covers.fetchers"))); registered: \(coverFetchers.keys.sorted().joined(separator: ", "))")
            }
            return try factory.make(context)
        }
    }
}
