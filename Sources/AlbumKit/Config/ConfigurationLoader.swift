import Foundation
import Yams

/// Builds the effective ``Configuration`` from the embedded defaults, the first YAML file
/// found (SPEC 4), the environment, and flags — each layer overriding the one before.
///
/// Every key is checked against the core's keys and those the registered plugins declared
/// (`registry`): an unknown key is an error naming it, the file, the line and the closest
/// known key; a bad value names the key and what is allowed.
public struct ConfigurationLoader: Sendable {
    /// `--config PATH`, if given.
    public var explicitFile: String?
    /// The process environment (passed in so tests can set it).
    public var environment: [String: String]
    /// The folder relative paths on the command line resolve against.
    public var workingDirectory: String
    /// Flag overrides: key name → (value, flag as typed).
    public var flags: [String: (value: String, flag: String)] = [:]
    /// The adapters whose declared settings the configuration may hold.
    public var registry: AdapterRegistry

    public init(
        explicitFile: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: String = FileManager.default.currentDirectoryPath, registry: AdapterRegistry = .builtIn
    ) {
        self.explicitFile = explicitFile
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.registry = registry
    }

    /// The configuration file that applies, or nil for none. An explicitly named file
    /// (`--config`, `$ALBUMKIT_CONFIG`) that does not exist is an error.
    public func configurationFile() throws(AlbumKitError) -> String? {
        if let named = explicitFile ?? environment["ALBUMKIT_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) {
            let path = absolute(named)
            guard FileManager.default.fileExists(atPath: path) else {
                throw .configuration("configuration file \(path) does not exist")
            }
            return path
        }
        let candidates = [absolute("albumkit.yaml"), configHome + "/albumkit/config.yaml"]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    public var configHome: String { Configuration.configHome(environment: environment) }

    /// The effective configuration.
    public func load() throws(AlbumKitError) -> Configuration {
        var configuration = Configuration(environment: environment)
        configuration.declarations = registry.settingSections
        if let file = try configurationFile() {
            configuration.file = file
            try ConfigurationFileReader(path: file, registry: registry).apply(to: &configuration)
            if configuration.origins["library"] != nil {
                configuration.library = expand(configuration.library, relativeTo: (file as NSString).deletingLastPathComponent)
            }
        }
        try applyEnvironment(to: &configuration)
        for (name, override) in flags {
            guard let key = ConfigurationKey.named(name) else { continue }
            try assign(key, .scalar(override.value), origin: .flag(override.flag), to: &configuration)
        }
        if case .file = configuration.origin(of: "library") {} else {
            configuration.library = expand(configuration.library, relativeTo: workingDirectory)
        }
        applyFolderMarker(to: &configuration)
        try checkStorageAliases(configuration)
        return configuration
    }

    /// `ALBUMKIT_<SECTION>_<KEY>` for every core key and every declared plugin key (and the
    /// keys a process plugin's section sets in the file).
    private func applyEnvironment(to configuration: inout Configuration) throws(AlbumKitError) {
        for key in ConfigurationKey.all {
            guard let text = environment[key.environmentName] else { continue }
            try assign(key, .scalar(text), origin: .environment(key.environmentName), to: &configuration)
        }
        var sections = configuration.declarations.mapValues { $0.map { ($0.key, Optional($0.kind)) } }
        for command in configuration.plugins.commands {
            let keys = configuration.sectionValues["plugins.\(command.name)"]?.values.keys.sorted() ?? []
            sections["plugins.\(command.name)", default: []] += keys.map { ($0, nil) }
        }
        for (section, keys) in sections {
            for (key, kind) in keys {
                let name = "\(section).\(key)"
                let variable = ConfigurationKey.environmentName(for: name)
                guard let text = environment[variable] else { continue }
                let value = try SettingValue.parse(.scalar(text), as: kind, key: name, origin: "environment \(variable)")
                configuration.sectionValues[section, default: PluginSettings()].set(key, value)
                configuration.origins[name] = .environment(variable)
            }
        }
    }

    /// A library folder named by a flag or the environment says which backend holds it (its
    /// marker, else the one default library file it holds), unless a flag names the backend.
    private func applyFolderMarker(to configuration: inout Configuration) {
        switch configuration.origin(of: "library") {
        case .flag, .environment: break
        default: return
        }
        if case .flag = configuration.origin(of: "storage.backend") { return }
        let folder = configuration.libraryDirectory
        let origin = Configuration.Origin.file(folder.appendingPathComponent(LibraryFolderMarker.fileName).path)
        if let marked = LibraryFolderMarker.read(in: folder), registry.storageBackends[marked.backend] != nil {
            configuration.storage.backend = marked.backend
            configuration.origins["storage.backend"] = origin
            let declared = configuration.declarations["storage.\(marked.backend)"] ?? []
            for (key, value) in marked.settings where declared.contains(where: { $0.key == key }) {
                if configuration.sectionValues["storage.\(marked.backend)"]?.values[key] == nil {
                    configuration.sectionValues["storage.\(marked.backend)", default: PluginSettings()].set(key, .text(value))
                    configuration.origins["storage.\(marked.backend).\(key)"] = origin
                }
            }
            configuration.storage.path = nil
            configuration.storage.url = nil
            configuration.storage.format = nil
        } else if let found = LibraryFolderMarker.detect(in: folder, declarations: configuration.declarations),
            found != configuration.storage.backend
        {
            configuration.storage.backend = found
            configuration.origins["storage.backend"] = .file(folder.path)
        }
    }

    /// `storage.path`, `storage.url` and `storage.format` must fit the selected backend where it
    /// declares the key (a key it does not declare is left unused, so older files still load).
    private func checkStorageAliases(_ configuration: Configuration) throws(AlbumKitError) {
        let backend = configuration.storage.backend
        let declared = configuration.declarations["storage.\(backend)"] ?? []
        let aliases = [("path", configuration.storage.path), ("url", configuration.storage.url), ("format", configuration.storage.format)]
        for (key, value) in aliases {
            guard let value, configuration.sectionValues["storage.\(backend)"]?.values[key] == nil,
                let declaration = declared.first(where: { $0.key == key })
            else { continue }
            _ = try SettingValue.parse(.scalar(value), as: declaration.kind, key: "storage.\(key)", origin: configuration.describeOrigin(of: "storage.\(key)"))
        }
    }

    private func assign(
        _ key: ConfigurationKey, _ value: ConfigurationValue, origin: Configuration.Origin,
        to configuration: inout Configuration
    ) throws(AlbumKitError) {
        do {
            try key.assign(&configuration, value)
        } catch {
            throw .configuration("\(key.name) (from \(origin)): \(error.message)")
        }
        configuration.origins[key.name] = origin
    }

    private func absolute(_ path: String) -> String { expand(path, relativeTo: workingDirectory) }

    /// `~` expanded, relative paths resolved against `base`, `.` and `..` folded.
    private func expand(_ path: String, relativeTo base: String) -> String {
        var path = path
        if path == "~" || path.hasPrefix("~/") {
            path = (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
        }
        if !path.hasPrefix("/") { path = base + "/" + path }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// Turning a value as a file, variable or flag gives it into a declared setting's value.
enum SettingValue {
    /// `value` as a value of `kind` (nil: any shape, for a process plugin's keys); an error
    /// names `key`, `origin` and what is allowed.
    static func parse(
        _ value: ConfigurationValue, as kind: SettingDeclaration.Kind?, key: String, origin: String
    ) throws(AlbumKitError) -> PluginSettings.Value {
        func refuse(_ what: String) -> AlbumKitError {
            AlbumKitError(.configuration, "\(key) (from \(origin)): \(what)")
        }
        guard let kind else {
            switch value {
            case .scalar(let text): return .text(text)
            case .list(let items): return .list(items)
            case .map(let pairs): return .map(pairs)
            }
        }
        switch (kind, value) {
        case (.list, _):
            return .list(value.items)
        case (.map, .map(let pairs)):
            return .map(pairs)
        case (.map, .scalar(let text)):
            var pairs: [String: String] = [:]
            for item in text.split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1).map { String($0).trimmingWhiteSpace() }
                guard parts.count == 2, !parts[0].isEmpty else { throw refuse("must be a mapping (key=value,key=value), not '\(text)'") }
                pairs[parts[0]] = parts[1]
            }
            return .map(pairs)
        case (_, .scalar(let text)):
            switch kind {
            case .text where text.isEmpty: throw refuse("must not be empty")
            case .integer(let minimum):
                guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number >= minimum else {
                    throw refuse("must be a whole number of at least \(minimum), not '\(text)'")
                }
            case .number:
                guard let number = Double(text), number.isFinite, number >= 0 else { throw refuse("must be a number, not '\(text)'") }
            case .flag:
                guard ["true", "false", "yes", "no", "on", "off"].contains(text.lowercased()) else {
                    throw refuse("must be true or false, not '\(text)'")
                }
            case .choice(let choices):
                guard choices.contains(text) else { throw refuse("must be one of \(choices.joined(separator: ", ")), not '\(text)'") }
            default: break
            }
            return .text(text)
        default:
            throw refuse("must be \(kind), not a \(value.shape)")
        }
    }
}
