import AlbumKit
import Synchronization

/// The hub's events for the open pages: one stream per `/api/events` client, each a hub
/// subscriber of its own (ended when the client goes), plus heartbeats so a vanished client
/// is noticed; ``closeAll()`` ends every stream when serving stops.
final class EventFeed: Sendable {
    /// What a stream carries.
    enum Item: Sendable {
        case event(LibraryEvent)
        /// An event of another process, as the JSON line it wrote.
        case relayed(String)
        case heartbeat
    }

    private struct State {
        var nextID = 0
        var open: [Int: AsyncStream<Item>.Continuation] = [:]
        var closed = false
    }

    /// Events kept for a client that reads slower than the library changes; past that the
    /// oldest are dropped (the page reloads what it shows on the events that remain).
    static let buffered = 10_000

    private let hub: NotificationHub
    private let state = Mutex(State())

    init(hub: NotificationHub) {
        self.hub = hub
    }

    /// A new client's stream: every event published from now on.
    func stream() -> AsyncStream<Item> {
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingNewest(Self.buffered))
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            state.nextID += 1
            state.open[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        let subscription = hub.subscribe { continuation.yield(.event($0)) }
        continuation.onTermination = { [weak self] _ in
            subscription.cancel()
            _ = self?.state.withLock { $0.open.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends another process's event (its JSON line) down every stream, without publishing
    /// it on the hub, whose subscribers must not act on it.
    func relay(_ line: String) {
        for continuation in state.withLock({ Array($0.open.values) }) { continuation.yield(.relayed(line)) }
    }

    /// Sends a heartbeat down every stream.
    func heartbeat() {
        for continuation in state.withLock({ Array($0.open.values) }) { continuation.yield(.heartbeat) }
    }

    /// Ends every stream and refuses new ones.
    func closeAll() {
        let open = state.withLock { state in
            state.closed = true
            defer { state.open = [:] }
            return Array(state.open.values)
        }
        for continuation in open { continuation.finish() }
    }

    /// How many clients are listening.
    var clients: Int { state.withLock { $0.open.count } }
}
