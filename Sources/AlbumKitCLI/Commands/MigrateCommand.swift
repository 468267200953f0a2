import AlbumKit
import ArgumentParser
import Foundation

/// `albumkit migrate --to BACKEND [--path P | --url U]`: copy the library to another backend,
/// verify the copy, then switch `storage` in the configuration file in effect.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move the library to another storage backend.",
        discussion: """
            Copies albums, order, ids, covers and history, checks the copy (counts and a content \
            hash over both sides), then writes the new storage keys into the configuration file \
            in effect (creating $XDG_CONFIG_HOME/albumkit/config.yaml when there is none). The \
            old library is left where it was; remove it when you no longer need it.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("to"), help: ArgumentHelp("The backend to move to (json, plist, bundle, sqlite, postgres, …).", valueName: "backend"))
    var backend: String
    @Option(help: ArgumentHelp("The new library file, relative to the library folder (default: the backend's).", valueName: "path"))
    var path: String?
    @Option(help: ArgumentHelp("The database URL, for postgres: postgres://user[:password]@host[:port]/database.", valueName: "url"))
    var url: String?

    func validate() throws {
        if path != nil && url != nil { throw ValidationError("give --path (file backends) or --url (postgres), not both") }
    }

    func run() async throws {
        let context = try global.makeContext(progress: true)
        defer { context.close() }
        let current = context.configuration
        let source = try context.storage()
        guard try await source.exists() else {
            throw AlbumKitError(.libraryState, "no library at \(source.location) to migrate: run 'albumkit init' first")
        }
        var target = current
        target.storage.backend = backend
        target.storage.path = path
        if let url { target.storage.url = url }
        let destination = try context.registry.makeStorage(for: target)

        let report = try await Migration(from: source, to: destination, hub: context.hub).run()
        print("Copied \(report.albums) albums, \(report.covers) covers and \(report.historySteps) history steps from \(source.location) to \(destination.location); verified (sha256 \(report.digest.prefix(16))…).")

        let loader = ConfigurationLoader(explicitFile: global.config)
        let file = current.file ?? loader.configHome + "/albumkit/config.yaml"
        var values: [(key: String, value: String?)] = [("backend", backend), ("path", path)]
        if url != nil || backend == "postgres" { values.append(("url", target.storage.url)) }
        let library = current.origin(of: "library") == .defaultValue ? nil : current.library
        let kept = try MigrationConfigFile(path: file).setStorage(values, newFileLibrary: library)
        context.hub.publish(.storageSwitched(from: source.location, to: destination.location))
        print("Switched storage to \(backend) in \(file)\(current.file == nil ? " (new file)" : "").")
        if !kept { Console.warning("\(file) was rewritten whole (its storage section is in flow style), so its comments were dropped") }
        for key in ["storage.backend", "storage.path", "storage.url"] {
            if case .environment(let variable) = current.origin(of: key) {
                Console.warning("\(variable) is set and still overrides \(key) in \(file); unset it to use the new library")
            }
        }
        print("The old library stays at \(source.location); remove it when you no longer need it.")
    }
}
