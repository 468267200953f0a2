import AlbumKit
import AlbumKitBundle
import AudioFiles
import BeetsSource
import DiscogsSource
import HTTPCovers
import ITunesSource
import KodiSource
import Lookups
import PostgresStorage
import RYMSource
import SQLiteStorage

extension AdapterRegistry {
    /// The adapters this repository ships: the core's built-ins, then each plugin,
    /// registered through the same public calls an outside package would use.
    public static var installed: AdapterRegistry {
        var registry = AdapterRegistry.builtIn
        registry.register(StorageBackendFactory.bundle)
        registry.register(BundleSource())
        registry.register(BundleExporter())
        registry.register(.sqlite)
        registry.register(.postgres)
        registry.register(.httpCovers)
        registry.registerLookups()
        registry.register(ITunesSource())
        registry.register(DiscogsSource())
        registry.register(DiscogsExporter())
        registry.register(RYMSource())
        registry.register(BeetsSource())
        registry.register(KodiSource())
        registry.register(KodiExporter())
        registry.register(AudioFilesSource())
        return registry
    }
}
