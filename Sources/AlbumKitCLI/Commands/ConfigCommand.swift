import AlbumKit
import ArgumentParser
import Foundation

/// `albumkit config show`: the effective configuration, each value with its source.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Inspect the configuration.", subcommands: [Show.self])

    /// `albumkit config show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the effective configuration and where each value came from.",
            discussion: """
                Precedence: flags, then ALBUMKIT_* environment variables, then the file, then defaults. \
                Lists the core's keys, then every key the registered plugins declare (storage.<backend>.*, \
                plugins.<name>.*, serve.*), and the keys of plugin programs.
                """)

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let configuration = try global.loadConfiguration()
            print("# configuration file: \(configuration.file ?? "none (embedded default)")")
            var rows: [(key: String, value: String, origin: String, variable: String)] = ConfigurationKey.all.map { key in
                (key.name, key.value(in: configuration), configuration.describeOrigin(of: key.name), key.environmentName)
            }
            if !configuration.plugins.commands.isEmpty {
                let commands = configuration.plugins.commands.map { "\($0.name) (\($0.kind.rawValue): \($0.run.joined(separator: " ")))" }
                rows.append(("plugins.commands", commands.joined(separator: "; "), configuration.describeOrigin(of: "plugins.commands"), "-"))
            }
            var sections = configuration.declarations.mapValues { $0.map(\.key) }
            for command in configuration.plugins.commands {
                sections["plugins.\(command.name)", default: []] += configuration.sectionValues["plugins.\(command.name)"]?.values.keys.sorted() ?? []
            }
            for section in sections.keys.sorted() {
                let settings = configuration.settings(inSection: section)
                for key in Array(Set(sections[section] ?? [])).sorted() {
                    let name = "\(section).\(key)"
                    rows.append((name, Self.render(settings.values[key]), configuration.describeOrigin(of: name), ConfigurationKey.environmentName(for: name)))
                }
            }
            let width = rows.map(\.key.count).max() ?? 0
            for row in rows {
                print("\(row.key.padding(toLength: width, withPad: " ", startingAt: 0))  \(row.value)  (\(row.origin); \(row.variable))")
            }
        }

        private static func render(_ value: PluginSettings.Value?) -> String {
            switch value {
            case .text(let text): text
            case .list(let items): "[" + items.joined(separator: ", ") + "]"
            case .map(let pairs): "{" + pairs.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
            case nil: "(not set)"
            }
        }
    }
}
