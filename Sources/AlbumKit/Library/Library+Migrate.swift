import Foundation

/// Where `migrate` moves a library: a backend and the settings that place it.
public struct MigrationTarget: Sendable, Hashable {
    /// The backend's registered name (`sqlite`, `postgres`).
    public var backend: String
    /// The new library file, relative to the library folder (file backends); nil for the
    /// backend's default.
    public var path: String?
    /// The database URL (`postgres`).
    public var url: String?

    /// A target of `backend` at `path` or `url`.
    public init(backend: String, path: String? = nil, url: String? = nil) {
        self.backend = backend
        self.path = path
        self.url = url
    }
}

/// What `migrate` did.
public struct MigrationOutcome: Sendable {
    /// What was copied and verified.
    public var report: MigrationReport
    /// Where the library was and is now.
    public var from: String
    public var to: String
    /// The configuration file the new storage keys were written to.
    public var configurationFile: String
    /// Whether that file was created by this migrate.
    public var createdFile: Bool
    /// Whether its comments and layout were kept (false: rewritten whole).
    public var keptLayout: Bool
    /// Where the destination's former library was saved (`--replace`).
    public var backup: String?
    /// Environment variables that still override the keys written (they must be unset).
    public var overridingVariables: [(variable: String, key: String)]
}

extension Library {
    /// Copies the library — albums, order, ids, covers, history — to `target`, verifies the
    /// copy (counts and a content hash over both sides, every cover re-hashed), then writes the
    /// new `storage` keys into the configuration file in effect (creating
    /// `$XDG_CONFIG_HOME/albumkit/config.yaml` when there is none) and publishes
    /// `storage.switched`. A destination holding another library is refused unless `replace`,
    /// which first saves it as a bundle in `backups/`. The library here is left as it was.
    /// Publishes `migrate.started`, `migrate.progress`, `migrate.finished` or `migrate.failed`.
    public func migrate(to target: MigrationTarget, replace: Bool = false) async throws -> MigrationOutcome {
        var destinationConfiguration = configuration
        destinationConfiguration.storage.backend = target.backend
        destinationConfiguration.storage.path = target.path
        if let url = target.url { destinationConfiguration.storage.url = url }
        let destination = try registry.makeStorage(for: destinationConfiguration)
        do {
            var backingUp: (@Sendable (ExportContents) async throws -> URL)?
            if replace {
                backingUp = { @Sendable contents in try await self.backUp(contents) }
            }
            let report = try await Migration(from: storage, to: destination, hub: hub).run(backingUp: backingUp)
            let file = configuration.file ?? configuration.defaultFile
            var values: [(key: String, value: String?)] = [("backend", target.backend), ("path", target.path)]
            if target.url != nil || configuration.storage.url != nil { values.append(("url", destinationConfiguration.storage.url)) }
            let library = configuration.origin(of: "library") == .defaultValue ? nil : configuration.library
            let kept = try MigrationConfigFile(path: file).setStorage(values, newFileLibrary: library)
            hub.publish(.migrateFinished(from: location, to: destination.location, albums: report.albums, covers: report.covers))
            hub.publish(.storageSwitched(from: location, to: destination.location))
            let overriding: [(variable: String, key: String)] = ["storage.backend", "storage.path", "storage.url"].compactMap { key in
                if case .environment(let variable) = configuration.origin(of: key) { (variable, key) } else { nil }
            }
            return MigrationOutcome(
                report: report, from: location, to: destination.location, configurationFile: file,
                createdFile: configuration.file == nil, keptLayout: kept, backup: report.backup, overridingVariables: overriding)
        } catch {
            hub.publish(.migrateFailed(from: location, to: destination.location, reason: String(describing: error)))
            throw error
        }
    }
}
