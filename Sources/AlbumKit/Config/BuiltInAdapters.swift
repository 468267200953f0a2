extension AdapterRegistry {
    /// The core's own adapters — `json` and `plist` storage and album sources, the `bundle`
    /// and `file` cover fetchers — registered
    /// through the same calls a plugin uses.
    public static var builtIn: AdapterRegistry {
        var registry = AdapterRegistry()
        registry.register(.json)
        registry.register(.plist)
        registry.register(AlbumListSource(format: JSONFormat()))
        registry.register(AlbumListSource(format: PropertyListFormat()))
        registry.register(.bundleCovers)
        registry.register(.fileCovers)
        return registry
    }
}
