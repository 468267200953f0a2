import AlbumKit
import AlbumKitCLI
import AlbumKitInstalled

// Everything this repository ships, plus this package's own three adapters.
var registry = AdapterRegistry.installed
registry.register(PipeListSource())
registry.register(ImportStageFactory.titleCaseGenre)
registry.register(CoverFetcherFactory.placeholder)
await AlbumKitCLI.main(registry: registry)
