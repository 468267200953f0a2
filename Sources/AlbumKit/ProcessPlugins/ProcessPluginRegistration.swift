import Foundation

extension AdapterRegistry {
    /// Registers each program `configuration.plugins.commands` names as the adapter of its
    /// kind — a ``ProcessSource``, a ``ProcessStage`` factory or a ``ProcessCoverFetcher``
    /// factory — under its name. Starts nothing: a program runs only when it is used.
    /// `plugin.failed` goes to `hub`; `environment` is the one the configuration was loaded
    /// from (for the keys a program declares that the file does not set). A program may not
    /// take the name of an adapter of its kind that is already registered (a stage called
    /// `validate` would replace the check).
    public mutating func registerProcessPlugins(
        of configuration: Configuration, environment: [String: String] = ProcessInfo.processInfo.environment, hub: NotificationHub?
    ) throws(AlbumKitError) {
        for command in configuration.plugins.commands {
            let launcher = ProcessPluginLauncher(command: command, configuration: configuration, environment: environment, hub: hub)
            let taken: Bool
            switch command.kind {
            case .source: taken = source(named: command.name) != nil
            case .stage: taken = importStages[command.name] != nil
            case .fetcher: taken = coverFetchers[command.name] != nil
            }
            guard !taken else {
                throw AlbumKitError(.configuration, "plugins.commands (from \(configuration.describeOrigin(of: "plugins.commands"))): '\(command.name)' is already the name of a registered \(command.kind.rawValue); choose another")
            }
            switch command.kind {
            case .source: register(ProcessSource(launcher: launcher))
            case .stage: register(launcher.stageFactory)
            case .fetcher: register(launcher.fetcherFactory)
            }
        }
    }
}
