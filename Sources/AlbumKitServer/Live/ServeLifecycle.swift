import Hummingbird
import ServiceLifecycle

/// The server's own background work, run beside the HTTP server in one service group: the
/// library watcher, the relay of other processes' cover requests and the event heartbeat. On SIGINT/SIGTERM it is shut down first, ending
/// every event stream, so that the HTTP server then drains and stops with nothing held open.
struct ServeLifecycle: Service {
    let watcher: LibraryWatcher
    let relay: CoverRequestRelay
    let feed: EventFeed
    /// How often idle event streams get a heartbeat.
    var heartbeat: Duration = .seconds(15)

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await watcher.run() }
            group.addTask { await relay.run() }
            group.addTask {
                while (try? await Task.sleep(for: heartbeat)) != nil { feed.heartbeat() }
            }
            try? await gracefulShutdown()
            feed.closeAll()
            group.cancelAll()
        }
    }
}
