/// One setting a plugin declares: its key under the plugin's section, its type, its default
/// and one line of documentation — what `config show` lists and the loader checks values of.
public struct SettingDeclaration: Sendable, Hashable {
    /// The kinds of value a setting holds.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// Any non-empty text.
        case text
        /// A whole number of at least `minimum`.
        case integer(minimum: Int)
        /// A non-negative number (seconds, say).
        case number
        /// true or false.
        case flag
        /// A list of texts (a comma-separated text in the environment).
        case list
        /// One of these texts.
        case choice([String])
        /// A mapping of texts to texts (`key=value,key=value` in the environment).
        case map

        public var description: String {
            switch self {
            case .text: "text"
            case .integer(let minimum): "a whole number of at least \(minimum)"
            case .number: "a number"
            case .flag: "true or false"
            case .list: "a list"
            case .choice(let choices): "one of \(choices.joined(separator: ", "))"
            case .map: "a mapping"
            }
        }
    }

    /// The key inside the section (`url`, `columns`).
    public let key: String
    /// What it holds.
    public let kind: Kind
    /// Its value when nothing sets it; nil for none.
    public let defaultValue: PluginSettings.Value?
    /// One line for `config show` and the docs.
    public let summary: String

    /// A declaration of `key`.
    public init(_ key: String, _ kind: Kind, default defaultValue: PluginSettings.Value? = nil, _ summary: String) {
        self.key = key
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }
}
