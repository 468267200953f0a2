extension AdapterRegistry {
    /// The core's own adapters — `json` and `plist` storage, album sources and exporters, the
    /// `bundle` and `file` cover fetchers, and the stages `validate`, `normalize`, `dedupe`
    /// and `covers` — registered through the same calls a plugin uses.
    public static var builtIn: AdapterRegistry {
        var registry = AdapterRegistry()
        registry.register(.json)
        registry.register(.plist)
        registry.register(AlbumListSource(format: JSONFormat()))
        registry.register(AlbumListSource(format: PropertyListFormat()))
        registry.register(AlbumListExporter(format: JSONFormat()))
        registry.register(AlbumListExporter(format: PropertyListFormat()))
        registry.register(FieldTableExporter(layout: .csv))
        registry.register(FieldTableExporter(layout: .jsonLines))
        registry.register(.bundleCovers)
        registry.register(.fileCovers)
        for stage in [ImportStageFactory.validate, .normalize, .dedupe, .covers] { registry.register(stage) }
        return registry
    }

    /// The stages `import` runs when `import.stages` is not set, in order.
    public static let defaultImportStages = ["validate", "normalize", "dedupe", "covers"]
}
