import Foundation

/// Where `migrate` moves a library: a backend and the settings that place it.
public struct MigrationTarget: Sendable, Hashable {
    /// The backend's registered name (`sqlite`, `postgres`).
    public var backend: String
    /// Values of the settings the backend declares (`path` for a file backend, `url` for
    /// postgres); the rest keep what the configuration says, or their defaults.
    public var settings: [String: String]

    /// A target of `backend` with these settings.
    public init(backend: String, settings: [String: String] = [:]) {
        self.backend = backend
        self.settings = settings
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
        let destinationConfiguration = try configuration(for: target)
        let destination = try registry.makeStorage(for: destinationConfiguration)
        do {
            var backingUp: (@Sendable (ExportContents) async throws -> URL)?
            if replace {
                backingUp = { @Sendable contents in try await self.backUp(contents) }
            }
            let report = try await Migration(from: storage, to: destination, hub: hub).run(backingUp: backingUp)
            let file = configuration.file ?? configuration.defaultFile
            // The old `storage.path/url/format` would be read as the new backend's keys: they go.
            var values: [(key: String, value: String?)] = [("backend", target.backend), ("path", nil), ("url", nil), ("format", nil)]
            values += target.settings.sorted { $0.key < $1.key }.map { ("\(target.backend).\($0.key)", $0.value) }
            let library = configuration.origin(of: "library") == .defaultValue ? nil : configuration.library
            let kept = try MigrationConfigFile(path: file).setStorage(values, newFileLibrary: library)
            LibraryFolderMarker.write(for: destinationConfiguration)
            hub.publish(.migrateFinished(from: location, to: destination.location, albums: report.albums, covers: report.covers))
            hub.publish(.storageSwitched(from: location, to: destination.location))
            let keys = ["storage.backend", "storage.path", "storage.url", "storage.format"]
                + (configuration.declarations["storage.\(target.backend)"] ?? []).map { "storage.\(target.backend).\($0.key)" }
            let overriding: [(variable: String, key: String)] = keys.compactMap { key in
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

    /// The configuration with `target` selected: its settings checked against what the backend
    /// declares, the old storage aliases dropped (they belonged to the backend being left).
    private func configuration(for target: MigrationTarget) throws -> Configuration {
        guard registry.storageBackends[target.backend] != nil else {
            throw AlbumKitError(.configuration, "unknown storage backend '\(target.backend)'; registered: \(registry.storageBackends.keys.sorted().joined(separator: ", "))")
        }
        let declared = registry.settingSections["storage.\(target.backend)"] ?? []
        var result = configuration
        result.storage.backend = target.backend
        result.storage.path = nil
        result.storage.url = nil
        result.storage.format = nil
        for (key, value) in target.settings {
            guard let declaration = declared.first(where: { $0.key == key }) else {
                throw AlbumKitError(.configuration, "the \(target.backend) backend has no setting '\(key)' (its settings: \(declared.isEmpty ? "none" : declared.map(\.key).joined(separator: ", ")))")
            }
            let parsed = try SettingValue.parse(.scalar(value), as: declaration.kind, key: "storage.\(target.backend).\(key)", origin: "migrate")
            result.sectionValues["storage.\(target.backend)", default: PluginSettings()].set(key, parsed)
        }
        return result
    }
}
