/// A plugin's own settings: the keys under `plugins.<name>` (or `storage.<backend>`) that it
/// declared, with their values after file, environment and flags — already checked against
/// the declared types.
public struct PluginSettings: Sendable, Hashable {
    /// One setting's value.
    public enum Value: Sendable, Hashable {
        case text(String)
        case list([String])
        case map([String: String])
    }

    /// Key (without the section prefix) → value.
    public private(set) var values: [String: Value]

    /// Settings holding `values`.
    public init(_ values: [String: Value] = [:]) { self.values = values }

    /// The text of `key`, or nil when it is unset or not text.
    public func string(_ key: String) -> String? {
        if case .text(let text) = values[key] { text } else { nil }
    }

    /// The items of `key` (a text value is one item), or [] when unset.
    public func strings(_ key: String) -> [String] {
        switch values[key] {
        case .list(let items): items
        case .text(let text): [text]
        default: []
        }
    }

    /// The mapping of `key`, or [:] when unset or not a mapping.
    public func map(_ key: String) -> [String: String] {
        if case .map(let map) = values[key] { map } else { [:] }
    }

    /// The whole number `key` holds, if it holds one.
    public func integer(_ key: String) -> Int? { string(key).flatMap { Int($0) } }

    /// The number `key` holds, if it holds one.
    public func number(_ key: String) -> Double? { string(key).flatMap { Double($0) } }

    /// Whether `key` holds `true`, `yes` or `on`; nil when unset.
    public func flag(_ key: String) -> Bool? {
        string(key).map { ["true", "yes", "on", "1"].contains($0.lowercased()) }
    }

    /// Sets `key`.
    public mutating func set(_ key: String, _ value: Value) { values[key] = value }
}
