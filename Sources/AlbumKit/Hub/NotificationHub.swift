import Synchronization

/// The one wire between parts (the observer pattern): publishers post ``LibraryEvent``s,
/// subscribers receive them — as closures or as an `AsyncStream`.
///
/// Thread-safe. Every subscriber gets the events in the one order the hub accepted them, one
/// at a time, and its closure never runs inside the hub's lock, so a subscriber may publish or
/// subscribe from its closure. The hub is passed down explicitly; there is no shared one.
///
/// One thread delivers at a time: a `publish` that finds no delivery under way delivers its
/// event to every subscriber itself, then any events other threads (or the subscribers)
/// published meanwhile; a `publish` that finds one under way queues its event and returns.
/// So the common case — one publisher — costs one lock round trip and a plain call per
/// subscriber, with nothing allocated.
///
/// A subscriber may name the events it takes; a publisher asks ``takes(_:)`` before making
/// events by the thousand that nobody takes (an import's `library.albumAdded` for each album
/// reads every album back from its scratch file).
public final class NotificationHub: Sendable {
    private final class Subscriber: Sendable {
        let id: UInt64
        let handler: @Sendable (LibraryEvent) -> Void
        /// The names of the events it takes; nil for every event.
        let names: Set<String>?
        /// Cleared on unsubscribing, so that events still on their way are not delivered.
        let active = Atomic(true)

        init(id: UInt64, names: Set<String>?, handler: @escaping @Sendable (LibraryEvent) -> Void) {
            self.id = id
            self.names = names
            self.handler = handler
        }

        func takes(_ name: String) -> Bool { names?.contains(name) ?? true }

        func deliver(_ event: LibraryEvent) {
            if active.load(ordering: .acquiring), names == nil || takes(event.name) { handler(event) }
        }
    }

    private struct State {
        var nextID: UInt64 = 0
        var subscribers: [Subscriber] = []
        /// Whether some thread is delivering; it also delivers everything in `queued`.
        var delivering = false
        /// Events accepted while a delivery was under way, in order, each with the
        /// subscribers there were when it was published.
        var queued: [(event: LibraryEvent, subscribers: [Subscriber])] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Calls `handler` with every event published from now until the subscription is
    /// cancelled or released; with `names`, only with the events so named (``LibraryEvent/name``).
    public func subscribe(to names: Set<String>? = nil, _ handler: @escaping @Sendable (LibraryEvent) -> Void) -> HubSubscription {
        let id = state.withLock { state in
            state.nextID += 1
            state.subscribers.append(Subscriber(id: state.nextID, names: names, handler: handler))
            return state.nextID
        }
        return HubSubscription { [weak self] in self?.unsubscribe(id) }
    }

    /// The events published from now on, as a stream that ends its subscription when the
    /// consumer stops iterating.
    public func events(bufferingNewest limit: Int? = nil) -> AsyncStream<LibraryEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: LibraryEvent.self, bufferingPolicy: limit.map { .bufferingNewest($0) } ?? .unbounded)
        let subscription = subscribe { continuation.yield($0) }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    /// Delivers `event` to every current subscriber.
    public func publish(_ event: LibraryEvent) {
        let subscribers: [Subscriber]? = state.withLock { state in
            guard !state.delivering else {
                state.queued.append((event, state.subscribers))
                return nil
            }
            state.delivering = true
            return state.subscribers
        }
        guard let subscribers else { return }
        Self.deliver(event, to: subscribers)
        drainQueued()
    }

    /// Whether a subscriber attached now takes the events named `name` (``LibraryEvent/name``).
    public func takes(_ name: String) -> Bool {
        state.withLock { state in state.subscribers.contains { $0.takes(name) } }
    }

    /// How many subscribers are attached now.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Delivers, outside the lock, the events queued during a delivery, until there are none;
    /// then lets the next `publish` deliver again.
    private func drainQueued() {
        while true {
            let batch: [(event: LibraryEvent, subscribers: [Subscriber])] = state.withLock { state in
                if state.queued.isEmpty { state.delivering = false }
                defer { state.queued = [] }
                return state.queued
            }
            guard !batch.isEmpty else { return }
            for (event, subscribers) in batch { Self.deliver(event, to: subscribers) }
        }
    }

    /// Calls each subscriber in turn, borrowing them from the array (no reference counting).
    private static func deliver(_ event: LibraryEvent, to subscribers: [Subscriber]) {
        subscribers.withUnsafeBufferPointer { buffer in
            for index in buffer.indices { buffer[index].deliver(event) }
        }
    }

    private func unsubscribe(_ id: UInt64) {
        state.withLock { state in
            state.subscribers.removeAll { subscriber in
                guard subscriber.id == id else { return false }
                subscriber.active.store(false, ordering: .releasing)
                return true
            }
        }
    }
}

/// The token a subscription returns. Cancelling it, or releasing the last reference to it,
/// stops delivery.
public final class HubSubscription: Sendable {
    private let cancellation: Mutex<(@Sendable () -> Void)?>

    init(_ cancel: @escaping @Sendable () -> Void) {
        cancellation = Mutex(cancel)
    }

    /// Stops delivery. Safe to call more than once.
    public func cancel() {
        let cancel = cancellation.withLock { action in
            defer { action = nil }
            return action
        }
        cancel?()
    }

    deinit { cancel() }
}
