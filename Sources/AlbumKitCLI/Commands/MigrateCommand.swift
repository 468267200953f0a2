import AlbumKit
import ArgumentParser
import Foundation

/// `albumkit migrate --to BACKEND [--path P | --url U] [--replace]`: copy the library to another
/// backend, verify the copy, then switch `storage` in the configuration file in effect.
struct MigrateCommand: AsyncParsableCommand, FlatMemoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move the library to another storage backend.",
        discussion: """
            Copies albums, order, ids, covers and history, checks the copy (counts and a content \
            hash over both sides), then writes the new storage keys into the configuration file \
            in effect (creating $XDG_CONFIG_HOME/albumkit/config.yaml when there is none). The \
            old library is left where it was; remove it when you no longer need it. A destination \
            that already holds another library is refused unless --replace, which first saves it \
            as a bundle in backups/.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("to"), help: ArgumentHelp("The backend to move to (json, plist, bundle, sqlite, postgres, …).", valueName: "backend"))
    var backend: String
    @Option(help: ArgumentHelp("The new library file, relative to the library folder (default: the backend's).", valueName: "path"))
    var path: String?
    @Option(help: ArgumentHelp("The database URL, for postgres: postgres://user[:password]@host[:port]/database.", valueName: "url"))
    var url: String?
    @Option(name: .customLong("set"), help: ArgumentHelp("Another setting the backend declares (storage.<backend>.KEY), as KEY=VALUE; repeatable.", valueName: "key=value"))
    var settings: [String] = []
    @Flag(help: "Replace a library the destination already holds (it is saved to backups/ first).")
    var replace = false

    func validate() throws {
        if path != nil && url != nil { throw ValidationError("give --path (file backends) or --url (postgres), not both") }
        for setting in settings where !setting.contains("=") { throw ValidationError("--set \(setting): expected KEY=VALUE") }
    }

    /// The backend settings the options give.
    private var target: MigrationTarget {
        var values: [String: String] = [:]
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            values[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        if let path { values["path"] = path }
        if let url { values["url"] = url }
        return MigrationTarget(backend: backend, settings: values)
    }

    func run() async throws {
        let outcome = try await global.withLibrary(progress: true) { library, _ in
            try await library.migrate(to: target, replace: replace)
        }
        let report = outcome.report
        if let backup = outcome.backup { print("Saved the library \(outcome.to) held to \(backup).") }
        print("Copied \(report.albums) albums, \(report.covers) covers and \(report.historySteps) history steps from \(outcome.from) to \(outcome.to); verified (sha256 \(report.digest.prefix(16))…).")
        print("Switched storage to \(backend) in \(outcome.configurationFile)\(outcome.createdFile ? " (new file)" : "").")
        if !outcome.keptLayout {
            Console.warning("\(outcome.configurationFile) was rewritten whole (its storage section is in flow style), so its comments were dropped")
        }
        for (variable, key) in outcome.overridingVariables {
            Console.warning("\(variable) is set and still overrides \(key) in \(outcome.configurationFile); unset it to use the new library")
        }
        print("The old library stays at \(outcome.from); remove it when you no longer need it.")
    }
}
