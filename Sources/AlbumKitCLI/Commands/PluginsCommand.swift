import AlbumKit
import ArgumentParser

/// `albumkit plugins`: the registered adapters by kind, each with where it comes from.
struct PluginsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins", abstract: "List the registered adapters by kind, with their origin and version.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let context = try global.makeContext()
        defer { context.close() }
        let registry = context.registry
        let versions = await Self.processVersions(context)
        func row<Context, Adapter>(_ factory: AdapterFactory<Context, Adapter>) -> PluginRow {
            PluginRow(name: factory.name, summary: factory.summary, origin: factory.origin, version: factory.version ?? versions[factory.name])
        }
        var sections: [(String, [PluginRow])] = []
        sections.append(("storage backends", registry.storageBackends.values.map(row)))
        sections.append(("album sources", registry.albumSources.map {
            PluginRow(name: $0.name, summary: $0.summary, origin: $0.origin, version: versions[$0.name])
        }))
        sections.append(("import stages", registry.importStages.values.map(row)))
        sections.append(("exporters", registry.exporters.map {
            PluginRow(name: $0.name, summary: "\($0.fileEndings.joined(separator: " ")): \($0.summary)", origin: AdapterOrigin(of: $0), version: nil)
        }))
        sections.append(("cover fetchers", registry.coverFetchers.values.map(row)))
        sections.append(("enrichers", registry.enrichers.values.map(row)))
        for (title, rows) in sections {
            print("\(title):")
            if rows.isEmpty { print("  (none)") }
            let sorted = title == "album sources" ? rows : rows.sorted { $0.name < $1.name }
            for row in sorted { print("  \(row.line)") }
        }
    }

    /// The version each program of `plugins.commands` gives in its `hello` (all asked at
    /// once); a program that does not answer is left out, with a warning.
    private static func processVersions(_ context: CommandContext) async -> [String: String] {
        await withTaskGroup(of: (String, Result<PluginHello, any Error>).self) { group in
            for command in context.configuration.plugins.commands {
                let launcher = ProcessPluginLauncher(command: command, configuration: context.configuration, environment: [:], hub: context.hub)
                group.addTask {
                    do {
                        return (command.name, .success(try await launcher.describe()))
                    } catch {
                        return (command.name, .failure(error))
                    }
                }
            }
            var versions: [String: String] = [:]
            for await (name, answer) in group {
                switch answer {
                case .success(let hello): versions[name] = hello.version
                case .failure(let error): Console.warning("\(error)")
                }
            }
            return versions
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

    var line: String {
        let version = origin == .builtIn ? AlbumKitVersion.current : self.version ?? "-"
        return "\(name) — \(summary) [\(origin), \(version)]"
    }
}
