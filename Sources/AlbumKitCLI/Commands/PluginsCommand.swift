import AlbumKit
import ArgumentParser

/// `albumkit plugins`: the registered adapters, by kind.
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "plugins", abstract: "List the registered adapters by kind.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let registry = AlbumKitCLI.registry
        print("storage backends:")
        for factory in registry.storageBackends.values.sorted(by: { $0.name < $1.name }) {
            print("  \(factory.name) — \(factory.summary)")
        }
        print("album sources:")
        for source in registry.albumSources { print("  \(source.name)") }
        print("cover fetchers:")
        let fetchers = registry.coverFetchers.values.sorted { $0.name < $1.name }
        if fetchers.isEmpty { print("  (none)") }
        for factory in fetchers { print("  \(factory.name) — \(factory.summary)") }
    }
}
