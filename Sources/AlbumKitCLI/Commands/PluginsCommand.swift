import AlbumKit
import ArgumentParser

/// `albumkit plugins`: the registered adapters by kind, each with where it comes from.
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins", abstract: "List the registered adapters by kind, with their origin and version.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let registry = AlbumKitCLI.registry
        var sections: [(String, [PluginRow])] = []
        sections.append(("storage backends", registry.storageBackends.values.map(PluginRow.init)))
        sections.append(("album sources", registry.albumSources.map { PluginRow(name: $0.name, summary: $0.summary, origin: AdapterOrigin(of: $0), version: nil) }))
        sections.append(("import stages", registry.importStages.values.map(PluginRow.init)))
        sections.append(("exporters", registry.exporters.map {
            PluginRow(name: $0.name, summary: "\($0.fileEndings.joined(separator: " ")): \($0.summary)", origin: AdapterOrigin(of: $0), version: nil)
        }))
        sections.append(("cover fetchers", registry.coverFetchers.values.map(PluginRow.init)))
        for (title, rows) in sections {
            print("\(title):")
            if rows.isEmpty { print("  (none)") }
            let sorted = title == "album sources" ? rows : rows.sorted { $0.name < $1.name }
            for row in sorted { print("  \(row.line)") }
        }
    }
}

/// One adapter as `plugins` lists it.
private struct PluginRow {
    let name: String
    let summary: String
    let origin: AdapterOrigin
    let version: String?

    init(name: String, summary: String, origin: AdapterOrigin, version: String?) {
        self.name = name
        self.summary = summary
        self.origin = origin
        self.version = version
    }

    init<Context, Adapter>(_ factory: AdapterFactory<Context, Adapter>) {
        self.init(name: factory.name, summary: factory.summary, origin: factory.origin, version: factory.version)
    }

    var line: String {
        let version = origin == .builtIn ? AlbumKitVersion.current : self.version ?? "-"
        return "\(name) — \(summary) [\(origin), \(version)]"
    }
}
