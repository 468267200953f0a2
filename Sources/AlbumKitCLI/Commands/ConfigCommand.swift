import AlbumKit
import ArgumentParser

/// `albumkit config show`: the effective configuration, each value with its source.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Inspect the configuration.", subcommands: [Show.self])

    /// `albumkit config show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the effective configuration and where each value came from.",
            discussion: "Precedence: flags, then ALBUMKIT_* environment variables, then the file, then defaults.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let configuration = try global.loadConfiguration()
            print("# configuration file: \(configuration.file ?? "none (embedded default)")")
            let keys = ConfigurationKey.all
            let width = keys.map(\.name.count).max() ?? 0
            for key in keys {
                let name = key.name.padding(toLength: width, withPad: " ", startingAt: 0)
                print("\(name)  \(key.value(in: configuration))  (\(configuration.origin(of: key.name)); \(key.environmentName))")
            }
        }
    }
}

import Foundation
