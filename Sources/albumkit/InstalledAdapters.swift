import AlbumKit

extension AdapterRegistry {
    /// The adapters this `albumkit` binary ships: the core's built-ins, then each plugin,
    /// registered through the same public calls an outside package would use.
    static var installed: AdapterRegistry {
        .builtIn
    }
}
