import Foundation
import PackagePlugin

/// Embeds `Bundles/starter` into the target as generated Swift source, so the `albumkit`
/// binary carries the starter library and `init --starter` works from any folder.
@main
struct EmbedStarterPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "Bundles/starter")
        let output = context.pluginWorkDirectoryURL.appending(path: "StarterFiles.swift")
        let files = (FileManager.default.enumerator(atPath: input.path)?.allObjects as? [String] ?? [])
            .map { input.appending(path: $0) }
        return [
            .buildCommand(
                displayName: "Embedding Bundles/starter",
                executable: try context.tool(named: "embed-files").url,
                arguments: [input.path, output.path, "StarterFiles"],
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
