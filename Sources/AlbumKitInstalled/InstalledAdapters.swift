import AlbumKit
import AlbumKitBundle
import AudioFiles
import HTTPCovers
import PostgresStorage
import SQLiteStorage

extension AdapterRegistry {
    /// The adapters this repository ships: the core's built-ins, then each plugin,
    /// registered through the same public calls an outside package would use.
    public static var installed: AdapterRegistry {
        var registry = AdapterRegistry.builtIn
        registry.register(StorageBackendFactory.bundle)
        registry.register(BundleSource())
        registry.register(.sqlite)
        registry.register(.postgres)
        registry.register(.httpCovers)
        registry.register(AudioFilesSource())
        return registry
    }
}
