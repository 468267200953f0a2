import AlbumKit
import AlbumKitBundle
import ArgumentParser
import Foundation

/// `albumkit export PATH`: an album list (`.json`, `.plist`) or a backup bundle.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the albums to a file.",
        discussion: "The format follows the name: \(ExportFormat.endings.joined(separator: ", ")). The file is written under a temporary name and renamed when complete.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file to write.") var path: String

    func run() async throws {
        let format = try ExportFormat(path: path)
        let destination = URL(fileURLWithPath: path)
        let albums = try await global.withLibrary(progress: true) { library, context in
            let snapshot = await library.snapshot
            switch format {
            case .jsonList:
                try AlbumListExporter(format: JSONFormat()).export(snapshot.albums, to: destination, hub: context.hub)
            case .plistList:
                try AlbumListExporter(format: PropertyListFormat()).export(snapshot.albums, to: destination, hub: context.hub)
            case .bundle:
                try await BundleWriter(compression: try BundleCompression(path: path), generator: "albumkit \(AlbumKitVersion.current)")
                    .write(snapshot, covers: library.storage.covers, to: destination, hub: context.hub)
            }
            return snapshot.albums
        }
        print("Exported \(albums.count) albums to \(path).")
    }
}
