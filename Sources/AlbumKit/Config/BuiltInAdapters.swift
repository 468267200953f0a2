extension AdapterRegistry {
    /// The core's own adapters — `json` and `plist` storage and album sources — registered
    /// through the same calls a plugin uses.
    public static var builtIn: AdapterRegistry {
        var registry = AdapterRegistry()
        registry.register(.json)
        registry.register(.plist)
        registry.register(AlbumListSource(format: JSONFormat()))
        registry.register(AlbumListSource(format: PropertyListFormat()))
        return registry
    }
}
