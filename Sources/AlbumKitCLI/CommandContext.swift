import AlbumKit
import Foundation
import Logging

/// What a running command works with, built once from the global options and passed down:
/// the configuration, the registered adapters, the hub and the subscribers on it
/// (the `--events` log, the progress display).
struct CommandContext {
    let configuration: Configuration
    let registry: AdapterRegistry
    let hub: NotificationHub
    let logger = Logger(label: "albumkit")
    private var subscriptions: [HubSubscription] = []

    /// A context over `configuration`, with the installed adapters and the programs
    /// `plugins.commands` names (which report `plugin.failed` on the hub).
    init(configuration: Configuration, eventsPath: String?, showsProgress: Bool) throws {
        let hub = NotificationHub()
        var registry = AlbumKitCLI.registry
        try registry.registerProcessPlugins(of: configuration, hub: hub)
        self.configuration = configuration
        self.registry = registry
        self.hub = hub
        if let eventsPath { subscriptions.append(try EventLogWriter(path: eventsPath).attach(to: hub)) }
        if showsProgress { subscriptions.append(ProgressDisplay().attach(to: hub)) }
        logger.debug("configuration file: \(configuration.file ?? "none (embedded default)")")
        logger.debug("library: \(configuration.library), backend: \(configuration.storage.backend)")
    }

    /// Ends the subscriptions (the events log, the progress display).
    func close() {
        for subscription in subscriptions { subscription.cancel() }
    }

    /// Opens the library; an absent one is an error that says to run `init`.
    func openLibrary() async throws -> Library {
        let library = try await Library.open(configuration, registry: registry, hub: hub)
        if Self.fileBackends.contains(configuration.storage.backend), let count = try? await library.count(), count > Self.fileLibraryAlbums {
            Console.warning(
                "this \(configuration.storage.backend) library holds \(count) albums; past \(Self.fileLibraryAlbums) every command reads and writes the whole file: 'albumkit migrate --to sqlite' keeps them fast")
        }
        return library
    }

    /// The backends that keep a library in one file, read whole by every command.
    private static let fileBackends: Set<String> = ["json", "plist"]
    /// How many albums a file library holds before commands say how to move it (BENCHMARKS.md:
    /// the commands' aims hold for a JSON library of 10 000 albums, not of 100 000).
    private static let fileLibraryAlbums = 25_000

    /// Prints a warning for each cover that could not be fetched, naming its album by title.
    func warn(about summary: CoverFetchSummary?, in library: Library) async {
        guard let summary else { return }
        for note in summary.notes { Console.warning(note) }
        guard !summary.failures.isEmpty else { return }
        let titles = Dictionary(((try? await library.albums()) ?? []).map { ($0.id, $0.title) }) { first, _ in first }
        for failure in summary.failures {
            Console.warning("cover of '\(titles[failure.album] ?? failure.album.rawValue)': \(failure.reason)")
        }
    }
}
