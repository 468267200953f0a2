import AlbumKitCLI
import AlbumKitInstalled

// The `albumkit` binary: the commands over every adapter this repository ships.
await AlbumKitCLI.main(registry: .installed)
