import Foundation

/// One configuration key: its dotted name, its environment variable, and how a text value
/// becomes a field of ``Configuration``. The table of every key lives here, so the YAML
/// reader, the environment reader and `config show` cannot disagree.
public struct ConfigurationKey: Sendable {
    /// The dotted name (`storage.backend`).
    public let name: String
    let assign: @Sendable (inout Configuration, ConfigurationValue) throws(ConfigurationProblem) -> Void
    let render: @Sendable (Configuration) -> String

    /// `ALBUMKIT_<SECTION>_<KEY>` in upper snake case.
    public var environmentName: String { Self.environmentName(for: name) }

    /// The environment variable of the dotted key `name`: `ALBUMKIT_` and the name in upper
    /// snake case (`storage.lockTimeoutSeconds` → `ALBUMKIT_STORAGE_LOCK_TIMEOUT_SECONDS`,
    /// `plugins.genre-map.table` → `ALBUMKIT_PLUGINS_GENRE_MAP_TABLE`); a run of capitals is
    /// one word (`plugins.musicbrainz.baseURL` → `ALBUMKIT_PLUGINS_MUSICBRAINZ_BASE_URL`).
    public static func environmentName(for name: String) -> String {
        var result = "ALBUMKIT_"
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character == "." || character == "-" {
                result += "_"
                continue
            }
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                // A word starts at a capital after a small letter, or at the last capital of a
                // run that a small letter follows (`URLPath` → `URL_PATH`).
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) { result += "_" }
            }
            result += character.uppercased()
        }
        return result
    }

    /// The value of this key in `configuration`, as `config show` prints it.
    public func value(in configuration: Configuration) -> String { render(configuration) }

    /// Every key of the core, in the order `config show` lists them.
    public static let all: [ConfigurationKey] = [
        .text("library", \.library),
        .text("storage.backend", \.storage.backend),
        .number("storage.lockTimeoutSeconds", \.storage.lockTimeoutSeconds),
        .optionalText("storage.path", \.storage.path),
        .optionalText("storage.url", \.storage.url),
        .optionalText("storage.format", \.storage.format),
        .optionalList("covers.fetchers", \.covers.fetchers),
        .list("covers.allowedSchemes", \.covers.allowedSchemes, choices: ["https", "http", "file"]),
        .list("covers.fileRoots", \.covers.fileRoots),
        .integer("covers.maxBytes", \.covers.maxBytes),
        .integer("covers.concurrency", \.covers.concurrency, minimum: 1),
        .number("covers.timeoutSeconds", \.covers.timeoutSeconds),
        .integer("covers.minPixels", \.covers.minPixels),
        .number("covers.maxAspect", \.covers.maxAspect, minimum: 1, unit: "a ratio"),
        .text("lookups.userAgent", \.lookups.userAgent),
        .number("lookups.retryAfterDays", \.lookups.retryAfterDays, unit: "a number of days"),
        .integer("limits.coverBytes", \.limits.coverBytes),
        .integer("limits.listBytes", \.limits.listBytes),
        .integer("limits.archiveBytes", \.limits.archiveBytes),
        .list("import.stages", \.importStages),
        .number("plugins.timeoutSeconds", \.plugins.timeoutSeconds),
    ]

    /// The keys that are read as the selected storage backend's own keys (`storage.path` →
    /// `storage.<backend>.path`), kept so earlier configuration files still load.
    static let storageAliases: Set<String> = ["storage.path", "storage.url", "storage.format"]

    /// The key called `name`, if there is one.
    public static func named(_ name: String) -> ConfigurationKey? { all.first { $0.name == name } }

    /// The core's section names (`storage`, `covers`, `limits`, `import`, `plugins`).
    static let sections: Set<String> = Set(all.compactMap { $0.name.split(separator: ".").count == 2 ? String($0.name.split(separator: ".")[0]) : nil })
}

/// A value as the YAML file, an environment variable or a flag gives it.
enum ConfigurationValue {
    case scalar(String)
    case list([String])
    case map([String: String])

    /// The items of a list; a scalar is a comma-separated list (as in environment variables).
    var items: [String] {
        switch self {
        case .list(let items): items
        case .scalar(let text):
            text.split(separator: ",").map { String($0).trimmingWhiteSpace() }.filter { !$0.isEmpty }
        case .map(let pairs): pairs.keys.sorted()
        }
    }

    /// What the value is, in words.
    var shape: String {
        switch self {
        case .scalar: "single value"
        case .list: "list"
        case .map: "mapping"
        }
    }
}

/// Why a value was refused, without saying where it came from (the caller adds that).
struct ConfigurationProblem: Error {
    let message: String
}

extension ConfigurationKey {
    private static func scalar(_ value: ConfigurationValue) throws(ConfigurationProblem) -> String {
        guard case .scalar(let text) = value else { throw ConfigurationProblem(message: "expects a single value, not a \(value.shape)") }
        return text
    }

    static func text(_ name: String, _ path: ConfigurationPath<String>) -> Self {
        Self(name: name, assign: { config, value throws(ConfigurationProblem) in
            let text = try scalar(value)
            guard !text.isEmpty else { throw ConfigurationProblem(message: "must not be empty") }
            config[keyPath: path] = text
        }, render: { $0[keyPath: path] })
    }

    static func optionalText(_ name: String, _ path: ConfigurationPath<String?>) -> Self {
        Self(name: name, assign: { config, value throws(ConfigurationProblem) in
            let text = try scalar(value)
            config[keyPath: path] = text.isEmpty ? nil : text
        }, render: { $0[keyPath: path] ?? "(not set)" })
    }

    static func choice(_ name: String, _ path: ConfigurationPath<String>, _ choices: [String]) -> Self {
        Self(name: name, assign: { config, value throws(ConfigurationProblem) in
            let text = try scalar(value)
            guard choices.contains(text) else {
                throw ConfigurationProblem(message: "must be one of \(choices.joined(separator: ", ")), not '\(text)'")
            }
            config[keyPath: path] = text
        }, render: { $0[keyPath: path] })
    }

    static func list(_ name: String, _ path: ConfigurationPath<[String]>, choices: [String]? = nil) -> Self {
        Self(name: name, assign: { config, value throws(ConfigurationProblem) in
            let items = value.items
            if let choices, let bad = items.first(where: { !choices.contains($0) }) {
                throw ConfigurationProblem(message: "'\(bad)' is not allowed; allowed: \(choices.joined(separator: ", "))")
            }
            config[keyPath: path] = items
        }, render: { "[" + $0[keyPath: path].joined(separator: ", ") + "]" })
    }

    static func optionalList(_ name: String, _ path: ConfigurationPath<[String]?>) -> Self {
        Self(name: name, assign: { config, value in config[keyPath: path] = value.items },
             render: { $0[keyPath: path].map { "[" + $0.joined(separator: ", ") + "]" } ?? "(the default chain)" })
    }

    static func integer<N: FixedWidthInteger & Sendable>(
        _ name: String, _ path: ConfigurationPath<N>, minimum: N = 0
    ) -> Self {
        Self(name: name, assign: { config, value throws(ConfigurationProblem) in
            let text = try scalar(value).replacingOccurrences(of: "_", with: "")
            guard let number = N(text), number >= minimum else {
                throw ConfigurationProblem(message: "must be a whole number of at least \(minimum), not '\(text)'")
            }
            config[keyPath: path] = number
        }, render: { String($0[keyPath: path]) })
    }

    /// A number of at least `minimum`; `unit` says in an error what it counts.
    static func number(_ name: String, _ path: ConfigurationPath<Double>, minimum: Double = 0, unit: String = "a number of seconds") -> Self {
        Self(name: name, assign: { config, value throws(ConfigurationProblem) in
            let text = try scalar(value)
            guard let number = Double(text), number.isFinite, number >= minimum else {
                throw ConfigurationProblem(message: "must be \(unit)\(minimum > 0 ? " of at least \(minimum)" : ""), not '\(text)'")
            }
            config[keyPath: path] = number
        }, render: { String($0[keyPath: path]) })
    }
}

/// A field of ``Configuration`` that a key writes.
typealias ConfigurationPath<Value> = any WritableKeyPath<Configuration, Value> & Sendable
