import Foundation

/// The effective settings (SPEC 4): the embedded defaults, overridden by a YAML file, then by
/// `ALBUMKIT_*` environment variables, then by flags. Built by ``ConfigurationLoader``.
///
/// The core's own keys are fields. A plugin's keys live in its section — `plugins.<name>`,
/// or `storage.<backend>` for a storage backend, or a section a module declared (`serve`) —
/// and are read with ``settings(inSection:)``, which fills in the declared defaults.
public struct Configuration: Sendable, Hashable {
    /// Where each key's value came from.
    public enum Origin: Sendable, Hashable, CustomStringConvertible {
        case defaultValue
        case file(String)
        case environment(String)
        case flag(String)

        public var description: String {
            switch self {
            case .defaultValue: "default"
            case .file(let path): "file \(path)"
            case .environment(let name): "environment \(name)"
            case .flag(let name): "flag \(name)"
            }
        }
    }

    /// The `storage` section's own keys.
    public struct Storage: Sendable, Hashable {
        public var backend = "json"
        /// A second writer waits this long for the lock.
        public var lockTimeoutSeconds = 30.0
        /// `storage.path`, `storage.url`, `storage.format`: the keys of earlier configuration
        /// files, read as the selected backend's `path`, `url` and `format` when its own
        /// section does not set them.
        public var path: String?
        public var url: String?
        public var format: String?
    }

    /// The `covers` section.
    public struct Covers: Sendable, Hashable {
        /// The fetcher chain, in order; nil for the default chain (every fetcher registered into
        /// it, in registration order: all but the lookups).
        public var fetchers: [String]?
        public var allowedSchemes = ["https", "http", "file"]
        public var fileRoots: [String] = []
        public var maxBytes = 20_000_000
        public var concurrency = 8
        public var timeoutSeconds = 15.0
        /// An image a lookup found (SPEC 11) narrower or lower than this many pixels is passed over.
        public var minPixels = 300
        /// An image a lookup found whose longer side is more than this many times its shorter
        /// one is passed over (a cover is about square).
        public var maxAspect = 1.15
    }

    /// The `lookups` section: how AlbumKit asks the services of SPEC 11 about an album.
    public struct Lookups: Sendable, Hashable {
        /// Sent with every request; MusicBrainz asks for a contact in it
        /// (`albumkit/1.0 ( you@example.com )`).
        public var userAgent = "albumkit/\(AlbumKitVersion.current)"
        /// A lookup that found nothing is not asked again before this many days.
        public var retryAfterDays = 30.0
    }

    /// The `plugins` section's own keys.
    public struct Plugins: Sendable, Hashable {
        /// How long a plugin program may take to answer before it is stopped.
        public var timeoutSeconds = 30.0
        /// Programs in any language that act as sources, stages or cover fetchers.
        public var commands: [ProcessPluginCommand] = []
    }

    /// The library folder; relative storage paths resolve here.
    public var library: String
    public var storage = Storage()
    public var covers = Covers()
    public var lookups = Lookups()
    public var limits = Limits()
    /// The stages `import` runs, in order (`import.stages`).
    public var importStages = AdapterRegistry.defaultImportStages
    public var plugins = Plugins()
    /// Values set in plugin and module sections (`plugins.csv`, `storage.postgres`, `serve`),
    /// by section, without defaults.
    public var sectionValues: [String: PluginSettings] = [:]
    /// What the registered plugins declared, by section: the defaults come from here.
    public var declarations: [String: [SettingDeclaration]] = [:]
    /// The configuration file in effect, if any.
    public var file: String?
    /// The file `migrate` writes when there is none: `$XDG_CONFIG_HOME/albumkit/config.yaml`.
    public var defaultFile: String
    /// Where each key (`storage.backend`, `plugins.csv.columns`, …) got its value; keys not
    /// listed are defaults.
    public var origins: [String: Origin] = [:]
    /// The line of the configuration file each key set there is on.
    public var fileLines: [String: Int] = [:]

    /// The embedded default: a JSON library under the XDG data folder.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        library = Self.defaultLibrary(environment: environment)
        defaultFile = Self.configHome(environment: environment) + "/albumkit/config.yaml"
    }

    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    public static func configHome(environment: [String: String]) -> String {
        if let home = environment["XDG_CONFIG_HOME"], home.hasPrefix("/") { return home }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
    }

    /// `$XDG_DATA_HOME/albumkit`, or `~/.local/share/albumkit`.
    public static func defaultLibrary(environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/albumkit" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/albumkit"
    }

    /// The library folder as a URL.
    public var libraryDirectory: URL { URL(fileURLWithPath: library, isDirectory: true) }

    /// `path` resolved against the library folder (absolute paths stay as they are).
    public func resolve(_ path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : libraryDirectory.appendingPathComponent(path)
    }

    /// Where `key` got its value, with its line when it came from the file.
    public func origin(of key: String) -> Origin { origins[key] ?? .defaultValue }

    /// `origin(of:)` as messages say it: "file /x/albumkit.yaml, line 4".
    public func describeOrigin(of key: String) -> String {
        guard case .file = origin(of: key), let line = fileLines[key] else { return origin(of: key).description }
        return "\(origin(of: key)), line \(line)"
    }

    /// The settings of `section`: its declared defaults, overridden by the values set.
    public func settings(inSection section: String) -> PluginSettings {
        var settings = PluginSettings()
        for declaration in declarations[section] ?? [] {
            if let value = declaration.defaultValue { settings.set(declaration.key, value) }
        }
        for (key, value) in sectionValues[section]?.values ?? [:] { settings.set(key, value) }
        return settings
    }

    /// The settings of the plugin (stage, source, exporter, fetcher) called `name`.
    public func settings(for name: String) -> PluginSettings { settings(inSection: "plugins.\(name)") }

    /// The settings of the storage backend `name` (default: the selected one): its
    /// `storage.<name>` section, with `storage.path`, `storage.url` and `storage.format` read
    /// as its `path`, `url` and `format` where the section does not set them.
    public func backendSettings(_ name: String? = nil) -> PluginSettings {
        let section = "storage.\(name ?? storage.backend)"
        var settings = settings(inSection: section)
        let own = sectionValues[section]?.values ?? [:]
        for (key, alias) in [("path", storage.path), ("url", storage.url), ("format", storage.format)] {
            if own[key] == nil, let alias { settings.set(key, .text(alias)) }
        }
        return settings
    }

    /// Where the selected backend's `key` came from: its own section, else the old alias.
    public func backendOrigin(of key: String) -> String {
        let own = "storage.\(storage.backend).\(key)"
        return describeOrigin(of: origins[own] == nil && origins["storage.\(key)"] != nil ? "storage.\(key)" : own)
    }
}

/// Sizes past which reading stops (SPEC 3, `limits.*`).
public struct Limits: Sendable, Hashable {
    /// One cover's bytes.
    public var coverBytes: Int64 = 20_000_000
    /// The album list's bytes.
    public var listBytes: Int64 = 200_000_000
    /// A whole archive's unpacked bytes.
    public var archiveBytes: Int64 = 64_000_000_000

    public init(coverBytes: Int64 = 20_000_000, listBytes: Int64 = 200_000_000, archiveBytes: Int64 = 64_000_000_000) {
        self.coverBytes = coverBytes
        self.listBytes = listBytes
        self.archiveBytes = archiveBytes
    }
}

/// A program named in `plugins.commands` that acts as a source, a stage or a cover fetcher.
public struct ProcessPluginCommand: Sendable, Hashable {
    /// What a plugin program is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case source, stage, fetcher
    }

    /// The name it registers under (and its settings section, `plugins.<name>`).
    public var name: String
    /// What it is.
    public var kind: Kind
    /// The program and its arguments.
    public var run: [String]

    /// A plugin program `name` of `kind` started as `run`.
    public init(name: String, kind: Kind, run: [String]) {
        self.name = name
        self.kind = kind
        self.run = run
    }
}
