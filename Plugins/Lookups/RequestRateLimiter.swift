import HTTPCovers
import Synchronization

/// Holds requests to one service to its published rate, at the service's end: one request at
/// a time, each sent at least ``interval`` after the previous one's answer came back — so
/// that however late a busy machine sends a request, the next never reaches the service
/// sooner than ``interval`` after it. Waiters go in the order they came.
public actor RequestRateLimiter: RequestGate {
    /// The least time between the end of one request and the start of the next.
    public nonisolated let interval: Duration
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var nextStart = ContinuousClock.now

    /// A limiter for `requestsPerSecond` (a fraction for fewer: `1.0 / 3` is one every three
    /// seconds).
    public init(requestsPerSecond: Double) {
        interval = .nanoseconds(Int64(1_000_000_000 / max(requestsPerSecond, 0.001)))
    }

    /// Waits for the turn of this request and its time; ``leave()`` ends the turn.
    public func enter() async throws {
        if busy {
            await withCheckedContinuation { waiting.append($0) }  // ``leave()`` hands the turn over
        }
        busy = true
        do {
            try await Task.sleep(until: nextStart, clock: .continuous)
        } catch {
            leave()
            throw error
        }
    }

    /// Ends the turn: the next request may start ``interval`` from now.
    public func leave() {
        nextStart = .now + interval
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    private static let registry = Mutex<[String: RequestRateLimiter]>([:])

    /// The one limiter of this process for `service` at `baseURL` and this rate: a service's
    /// published limit is per client, so every lookup of the process — any number of
    /// clients, fetchers and commands at once — shares it. (The process's only shared
    /// state on purpose: passing it down could not make two parts share it more surely.)
    public static func shared(service: String, baseURL: String, requestsPerSecond: Double) -> RequestRateLimiter {
        registry.withLock { limiters in
            let key = "\(service) \(baseURL) \(requestsPerSecond)"
            if let limiter = limiters[key] { return limiter }
            let limiter = RequestRateLimiter(requestsPerSecond: requestsPerSecond)
            limiters[key] = limiter
            return limiter
        }
    }
}
