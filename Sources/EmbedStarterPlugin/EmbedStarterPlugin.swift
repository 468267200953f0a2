import Foundation
import PackagePlugin

/// Embeds a folder into the target as generated Swift source (through the `embed-files`
/// tool), so the `albumkit` binary works from any folder: `Bundles/starter` into AlbumKit
/// (`init --starter`) and the serve page `Sources/AlbumKitServer/Page` into AlbumKitServer.
@main
struct EmbedStarterPlugin: BuildToolPlugin {
    /// Target name → the folder it carries (relative to the package) and the enum that holds it.
    private static let embedded = [
        "AlbumKit": (folder: "Bundles/starter", name: "StarterFiles"),
        "AlbumKitServer": (folder: "Sources/AlbumKitServer/Page", name: "PageFiles"),
    ]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let (folder, name) = Self.embedded[target.name] else { return [] }
        let input = context.package.directoryURL.appending(path: folder)
        let output = context.pluginWorkDirectoryURL.appending(path: "\(name).swift")
        let files = (FileManager.default.enumerator(atPath: input.path)?.allObjects as? [String] ?? [])
            .map { input.appending(path: $0) }
        return [
            .buildCommand(
                displayName: "Embedding \(folder)",
                executable: try context.tool(named: "embed-files").url,
                arguments: [input.path, output.path, name],
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
