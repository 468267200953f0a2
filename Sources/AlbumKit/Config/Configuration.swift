import Foundation

/// The effective settings (SPEC 4): the embedded defaults, overridden by a YAML file, then by
/// `ALBUMKIT_*` environment variables, then by flags. Built by ``ConfigurationLoader``.
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

    /// The `storage` section.
    public struct Storage: Sendable, Hashable {
        public var backend = "json"
        /// nil means the backend's default file name.
        public var path: String?
        public var format = "xml"
        public var url: String?
        public var lockTimeoutSeconds = 30.0
    }

    /// The `covers` section.
    public struct Covers: Sendable, Hashable {
        public var fetchers = ["bundle", "file", "http"]
        public var allowedSchemes = ["https", "http", "file"]
        public var fileRoots: [String] = []
        public var maxBytes = 20_000_000
        public var concurrency = 8
        public var timeoutSeconds = 15.0
    }

    /// The library folder; relative storage paths resolve here.
    public var library: String
    public var storage = Storage()
    public var covers = Covers()
    public var limits = Limits()
    /// The stages `import` runs, in order (`import.stages`).
    public var importStages = AdapterRegistry.defaultImportStages
    /// Each plugin's own settings, by plugin name (`plugins.<name>.*`).
    public var pluginSettings: [String: PluginSettings] = [:]
    /// The configuration file in effect, if any.
    public var file: String?
    /// The file `migrate` writes when there is none: `$XDG_CONFIG_HOME/albumkit/config.yaml`.
    public var defaultFile: String
    /// Where each key (`storage.backend`, …) got its value; keys not listed are defaults.
    public var origins: [String: Origin] = [:]

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

    /// The settings of the plugin (or stage, source, fetcher) called `name`.
    public func settings(for name: String) -> PluginSettings { pluginSettings[name] ?? PluginSettings() }

    /// Where `key` got its value.
    public func origin(of key: String) -> Origin { origins[key] ?? .defaultValue }
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
