import Foundation

/// Starts one configured plugin program and brings it to where it takes requests: reads its
/// `hello`, checks the settings configured for it against the ones it declares, and answers
/// with those settings and the limits. What the three process adapters share.
public struct ProcessPluginLauncher: Sendable {
    /// The program, as `plugins.commands` names it.
    public let command: ProcessPluginCommand
    /// The configuration it runs under: its settings, `plugins.timeoutSeconds`, the limits.
    public let configuration: Configuration
    /// Where `plugin.failed` is published; nil for none.
    public let hub: NotificationHub?
    /// The environment the configuration was loaded from: a key the program declares in its
    /// `hello` but the file does not set may come from `ALBUMKIT_PLUGINS_<NAME>_<KEY>`.
    public let environment: [String: String]

    /// A launcher of `command` under `configuration` (loaded from `environment`), reporting
    /// to `hub`.
    public init(command: ProcessPluginCommand, configuration: Configuration, environment: [String: String], hub: NotificationHub?) {
        self.command = command
        self.configuration = configuration
        self.environment = environment
        self.hub = hub
    }

    /// Where the adapter comes from, for `albumkit plugins` and `pipeline show`.
    public var origin: AdapterOrigin { .process(command.run.joined(separator: " ")) }

    /// A started plugin, configured and ready for requests.
    func start() async throws -> PluginSession {
        let session = try await PluginSession.start(self)
        let settings: PluginSettings
        do {
            settings = try checkedSettings(declared: session.hello.settings)
        } catch {
            session.abandon()
            throw error
        }
        try await session.configure(settings: settings, limits: configuration.limits)
        return session
    }

    /// What the program says about itself in its `hello` (name, version, settings), asked
    /// without configuring it: the program is started, heard, and told to stop by its input
    /// closing. An error names the plugin when it does not answer.
    public func describe() async throws -> PluginHello {
        let session = try await PluginSession.start(self)
        let hello = session.hello
        session.abandon()
        return hello
    }

    /// The settings configured under `plugins.<name>`: when the plugin declares its settings,
    /// each configured key must be one of them (an error names the key, where it was set and
    /// the closest declared key) and hold a value of its type; a declared key the file does
    /// not set may come from the environment; declared defaults fill the rest.
    func checkedSettings(declared: [SettingDeclaration]?) throws(AlbumKitError) -> PluginSettings {
        let section = "plugins.\(command.name)"
        let configured = configuration.settings(inSection: section)
        guard let declared else { return configured }
        var settings = PluginSettings()
        for declaration in declared {
            if let value = declaration.defaultValue { settings.set(declaration.key, value) }
        }
        for (key, value) in configured.values.sorted(by: { $0.key < $1.key }) {
            let name = "\(section).\(key)"
            let origin = configuration.describeOrigin(of: name)
            guard let declaration = declared.first(where: { $0.key == key }) else {
                let known = declared.map { "\(section).\($0.key)" }
                throw AlbumKitError(.configuration, "unknown key '\(name)' (from \(origin))\(Spelling.suggestion(for: name, among: known)): plugin '\(command.name)' declares \(known.isEmpty ? "no settings" : known.joined(separator: ", "))")
            }
            let given: ConfigurationValue = switch value {
            case .text(let text): .scalar(text)
            case .list(let items): .list(items)
            case .map(let pairs): .map(pairs)
            }
            settings.set(key, try SettingValue.parse(given, as: declaration.kind, key: name, origin: origin))
        }
        for declaration in declared where configured.values[declaration.key] == nil {
            let name = "\(section).\(declaration.key)"
            let variable = ConfigurationKey.environmentName(for: name)
            guard let text = environment[variable] else { continue }
            settings.set(declaration.key, try SettingValue.parse(.scalar(text), as: declaration.kind, key: name, origin: "environment \(variable)"))
        }
        return settings
    }
}
