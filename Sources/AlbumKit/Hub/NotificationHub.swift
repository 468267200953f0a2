import Synchronization

/// The one wire between parts (the observer pattern): publishers post ``LibraryEvent``s,
/// subscribers receive them — as closures or as an `AsyncStream`.
///
/// Thread-safe. Each subscriber gets the events in the order the hub accepted them, one at a
/// time, and its closure never runs inside the hub's lock, so a subscriber may publish or
/// subscribe from its closure. The hub is passed down explicitly; there is no shared one.
public final class NotificationHub: Sendable {
    private struct Mailbox: Sendable {
        let deliver: @Sendable (LibraryEvent) -> Void
        var pending: [LibraryEvent] = []
        var delivering = false
    }

    private struct State {
        var nextID: UInt64 = 0
        var mailboxes: [UInt64: Mailbox] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Calls `handler` with every event published from now until the subscription is
    /// cancelled or released.
    public func subscribe(_ handler: @escaping @Sendable (LibraryEvent) -> Void) -> HubSubscription {
        let id = state.withLock { state in
            state.nextID += 1
            state.mailboxes[state.nextID] = Mailbox(deliver: handler)
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
        let ready: [UInt64] = state.withLock { state in
            var ready: [UInt64] = []
            for id in state.mailboxes.keys {
                state.mailboxes[id]!.pending.append(event)
                if !state.mailboxes[id]!.delivering {
                    state.mailboxes[id]!.delivering = true
                    ready.append(id)
                }
            }
            return ready
        }
        for id in ready { drain(id) }
    }

    /// How many subscribers are attached now.
    public var subscriberCount: Int { state.withLock { $0.mailboxes.count } }

    /// Delivers a mailbox's events outside the lock until it is empty. Only the thread that
    /// set `delivering` drains, so each subscriber sees one event at a time, in order.
    private func drain(_ id: UInt64) {
        while true {
            let next: (batch: [LibraryEvent], deliver: @Sendable (LibraryEvent) -> Void)? = state.withLock { state in
                guard var mailbox = state.mailboxes[id] else { return nil }
                guard !mailbox.pending.isEmpty else {
                    mailbox.delivering = false
                    state.mailboxes[id] = mailbox
                    return nil
                }
                let batch = mailbox.pending
                mailbox.pending.removeAll(keepingCapacity: true)
                state.mailboxes[id] = mailbox
                return (batch, mailbox.deliver)
            }
            guard let next else { return }
            for event in next.batch { next.deliver(event) }
        }
    }

    private func unsubscribe(_ id: UInt64) {
        _ = state.withLock { $0.mailboxes.removeValue(forKey: id) }
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
