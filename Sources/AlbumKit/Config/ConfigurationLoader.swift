import Foundation
import Yams

/// Builds the effective ``Configuration`` from the embedded defaults, the first YAML file
/// found (SPEC 4), the environment, and flags — each layer overriding the one before.
/// Unknown keys and bad values are errors naming the key and where it came from.
public struct ConfigurationLoader: Sendable {
    /// `--config PATH`, if given.
    public var explicitFile: String?
    /// The process environment (passed in so tests can set it).
    public var environment: [String: String]
    /// The folder relative paths on the command line resolve against.
    public var workingDirectory: String
    /// Flag overrides: key name → (value, flag as typed).
    public var flags: [String: (value: String, flag: String)] = [:]

    public init(
        explicitFile: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) {
        self.explicitFile = explicitFile
        self.environment = environment
        self.workingDirectory = workingDirectory
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
        if let file = try configurationFile() {
            configuration.file = file
            try applyFile(file, to: &configuration)
        }
        for key in ConfigurationKey.all {
            let variable = key.environmentName
            guard let text = environment[variable] else { continue }
            try assign(key, .scalar(text), origin: .environment(variable), to: &configuration)
        }
        for (name, override) in flags {
            guard let key = ConfigurationKey.named(name) else { continue }
            try assign(key, .scalar(override.value), origin: .flag(override.flag), to: &configuration)
        }
        configuration.library = expand(configuration.library, origin: configuration.origin(of: "library"))
        return configuration
    }

    private func applyFile(_ path: String, to configuration: inout Configuration) throws(AlbumKitError) {
        let text: String
        let root: Node?
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
            root = try Yams.compose(yaml: text)
        } catch {
            throw .configuration("configuration file \(path) is not valid YAML: \(error)")
        }
        guard let root else { return }
        guard let mapping = root.mapping else {
            throw .configuration("configuration file \(path): the top level must be a mapping of keys")
        }
        for (keyNode, valueNode) in mapping {
            let name = keyNode.string ?? ""
            if ConfigurationKey.sections.contains(name) {
                if valueNode.null != nil { continue }
                guard let section = valueNode.mapping else {
                    throw .configuration("configuration file \(path), line \(line(keyNode)): '\(name)' must be a mapping of keys")
                }
                for (innerKey, innerValue) in section {
                    try applyFileKey(name + "." + (innerKey.string ?? ""), innerKey, innerValue, path, &configuration)
                }
            } else {
                try applyFileKey(name, keyNode, valueNode, path, &configuration)
            }
        }
    }

    private func applyFileKey(
        _ name: String, _ keyNode: Node, _ valueNode: Node, _ path: String, _ configuration: inout Configuration
    ) throws(AlbumKitError) {
        guard let key = ConfigurationKey.named(name) else {
            let known = ConfigurationKey.all.map(\.name).joined(separator: ", ")
            throw .configuration("configuration file \(path), line \(line(keyNode)): unknown key '\(name)' (known keys: \(known))")
        }
        let value: ConfigurationValue
        if let sequence = valueNode.sequence {
            value = .list(sequence.map { $0.string ?? "" })
        } else if valueNode.null != nil {
            return
        } else if let text = valueNode.string {
            value = .scalar(text)
        } else {
            throw .configuration("configuration file \(path), line \(line(keyNode)): '\(name)' must not be a mapping")
        }
        try assign(key, value, origin: .file(path), to: &configuration)
        if name == "library" {
            configuration.library = expand(configuration.library, relativeTo: (path as NSString).deletingLastPathComponent)
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

    private func line(_ node: Node) -> Int { (node.mark?.line ?? 0) }

    private func absolute(_ path: String) -> String { expand(path, relativeTo: workingDirectory) }

    private func expand(_ path: String, origin: Configuration.Origin) -> String {
        if case .file = origin { return path }  // already resolved against the file's folder
        return expand(path, relativeTo: workingDirectory)
    }

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
