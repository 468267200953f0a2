/// Names → adapters: storage backends, album sources and cover fetchers.
///
/// Built-ins register through exactly the calls a plugin or an outside package uses
/// (`registry.register(.json)`, `registry.register(.sqlite)`), as fluent's
/// `databases.use(_:as:)` does. A value, passed down; there is no global registry.
public struct AdapterRegistry: Sendable {
    public private(set) var storageBackends: [String: StorageBackendFactory] = [:]
    public private(set) var albumSources: [any AlbumSource] = []
    public private(set) var coverFetchers: [String: CoverFetcherFactory] = [:]

    /// An empty registry.
    public init() {}

    /// Registers a storage backend under its name, replacing one of the same name.
    public mutating func register(_ factory: StorageBackendFactory) { storageBackends[factory.name] = factory }
    /// Registers an album source; sources are asked in registration order.
    public mutating func register(_ source: any AlbumSource) {
        albumSources.removeAll { $0.name == source.name }
        albumSources.append(source)
    }
    /// Registers a cover fetcher under its name.
    public mutating func register(_ factory: CoverFetcherFactory) { coverFetchers[factory.name] = factory }

    /// The storage backend `configuration` selects.
    public func makeStorage(for configuration: Configuration) throws -> any StorageBackend {
        let name = configuration.storage.backend
        guard let factory = storageBackends[name] else {
            throw AlbumKitError(.configuration, "unknown storage backend '\(name)' (from \(configuration.origin(of: "storage.backend"))); registered: \(storageBackends.keys.sorted().joined(separator: ", "))")
        }
        return try factory.make(configuration)
    }

    /// The source that recognises `input` best (see ``SourceMatch``); among equals, the one
    /// registered first.
    public func source(for input: SourceInput) -> (any AlbumSource)? {
        var best: (source: any AlbumSource, match: SourceMatch)?
        for source in albumSources {
            let match = source.match(input)
            if match > (best?.match ?? .none) { best = (source, match) }
        }
        return best?.source
    }

    /// The source registered as `name` (`import --format NAME`).
    public func source(named name: String) -> (any AlbumSource)? {
        albumSources.first { $0.name == name }
    }
}

/// Makes an adapter from a context; registered under ``name``. One type for every kind of
/// adapter — ``StorageBackendFactory`` and ``CoverFetcherFactory`` are its two uses.
public struct AdapterFactory<Context, Adapter>: Sendable {
    /// The name configuration selects it by (`storage.backend`, `covers.fetchers`).
    public let name: String
    /// One line for `albumkit plugins`.
    public let summary: String
    /// Builds the adapter.
    public let make: @Sendable (Context) throws -> Adapter

    public init(name: String, summary: String, make: @escaping @Sendable (Context) throws -> Adapter) {
        self.name = name
        self.summary = summary
        self.make = make
    }
}

/// Makes a storage backend from the configuration; registered under its name.
public typealias StorageBackendFactory = AdapterFactory<Configuration, any StorageBackend>

/// Makes a cover fetcher from the configuration and the library's store.
public typealias CoverFetcherFactory = AdapterFactory<CoverFetcherContext, any CoverFetcher>

import Foundation
