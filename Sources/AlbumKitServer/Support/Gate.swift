import Synchronization

/// Runs async work at most `places` pieces at a time, the rest waiting in arrival order. An
/// actor alone is not enough: its calls interleave at every `await`. With one place, a change
/// never starts while another is saving; with a few, reads of a database never need more
/// connections than the store keeps open (a connection opened and closed per request cost
/// more than the request).
final class Gate: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let places: Int
    private let state = Mutex(State())

    /// A gate letting `places` bodies run at once.
    init(places: Int) {
        self.places = max(1, places)
    }

    /// Runs `body` once a place is free.
    func run<T>(_ body: () async throws -> T) async throws -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = state.withLock { state in
                guard state.running >= places else {
                    state.running += 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
    }

    /// Hands the place to the next waiter, if any (it stays counted as running).
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
