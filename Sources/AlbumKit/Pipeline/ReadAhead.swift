import Foundation
import Synchronization

/// Pulls a source's items in a task of its own, up to ``budget`` bytes ahead of the consumer,
/// so that the source's work (inflating an archive, checking its checksums) runs on one core
/// while the consumer's (hashing covers, writing them) runs on another. Items arrive in order;
/// an error of the source arrives after the items before it. Dropping the consumer's side
/// (``cancel()``) stops the reading.
final class ReadAhead: Sendable {
    /// How many bytes of items may wait (a cover counts its bytes, anything else a little).
    /// Enough that reading never waits for the consumer nor the consumer for reading (a larger
    /// budget bought no time), and no more: what waits is held at the import's memory peak
    /// (BENCHMARKS.md).
    static let budget = 2 << 20

    /// How much must wait before a consumer that waits for items is woken (or the source's end,
    /// or an item the user sees as it comes: ``shownAtOnce(_:)``): a wake-up (a continuation
    /// resumed, a thread signalled) for every item of a large export's many small ones cost a
    /// Discogs import more than handing the items over did; a few large ones (an iTunes album
    /// and its tracks) wake it sooner, as more of them waiting raised that import's peak (the
    /// figures are in BENCHMARKS.md).
    static let wakeAt = (items: 64, bytes: 64 << 10)

    private struct State {
        /// The items waiting, each with its ``size(of:)``.
        var waiting: [(item: SourceItem, size: Int)] = []
        var head = 0
        var bytes = 0
        /// Set when the source has ended: nil for its end, or its error.
        var end: Result<Void, any Error>?
        var cancelled = false
        var consumer: CheckedContinuation<Void, Never>?
        var producer: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts reading `items`.
    init(_ items: AsyncThrowingStream<SourceItem, any Error>) {
        let reading = Task { [self] in
            do {
                for try await item in items {
                    guard await put(item) else { return }
                }
                finish(.success(()))
            } catch {
                finish(.failure(error))
            }
        }
        task.withLock { $0 = reading }
    }

    /// The next item, nil at the end; throws the source's error in its place.
    func next() async throws -> SourceItem? {
        while true {
            let taken: (item: SourceItem?, end: Result<Void, any Error>?, wake: CheckedContinuation<Void, Never>?) = state.withLock { state in
                guard state.head < state.waiting.count else { return (nil, state.end, nil) }
                // The slot lets go of the item at once (a cover's bytes are freed when used).
                let (item, size) = state.waiting[state.head]
                state.waiting[state.head] = (Self.taken, 0)
                state.head += 1
                state.bytes -= size
                if state.head == state.waiting.count {
                    // A burst of thousands of albums (a bundle's list) leaves no room held behind it.
                    state.waiting.removeAll(keepingCapacity: state.waiting.count <= 256)
                    state.head = 0
                } else if state.head >= 1024, state.head * 2 >= state.waiting.count {
                    state.waiting.removeFirst(state.head)
                    state.head = 0
                }
                let wake = state.bytes <= Self.budget / 2 ? state.producer.take() : nil
                return (item, nil, wake)
            }
            taken.wake?.resume()
            if let item = taken.item { return item }
            if let end = taken.end {
                try end.get()
                return nil
            }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    guard state.head == state.waiting.count, state.end == nil else { return true }
                    state.consumer = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    /// Stops the reading (the consumer gave up).
    func cancel() {
        let wake = state.withLock { state in
            state.cancelled = true
            return state.producer.take()
        }
        wake?.resume()
        task.withLock { $0?.cancel() }
    }

    /// Queues `item`, waiting while too much is queued; false when the consumer gave up.
    private func put(_ item: SourceItem) async -> Bool {
        let size = Self.size(of: item)
        let (accepted, wake, full): (Bool, CheckedContinuation<Void, Never>?, Bool) = state.withLock { state in
            guard !state.cancelled else { return (false, nil, false) }
            state.waiting.append((item, size))
            state.bytes += size
            // Woken here before the producer would wait for room: `budget` is above `wakeAt.bytes`.
            let wakes = Self.shownAtOnce(item) || state.waiting.count - state.head >= Self.wakeAt.items
                || state.bytes >= Self.wakeAt.bytes
            return (true, wakes ? state.consumer.take() : nil, state.bytes > Self.budget)
        }
        wake?.resume()
        guard accepted else { return false }
        guard full else { return true }
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                guard state.bytes > Self.budget / 2, !state.cancelled else { return true }
                state.producer = continuation
                return false
            }
            if ready { continuation.resume() }
        }
        return state.withLock { !$0.cancelled }
    }

    private func finish(_ end: Result<Void, any Error>) {
        let wake = state.withLock { state in
            state.end = end
            return state.consumer.take()
        }
        wake?.resume()
    }

    /// Whether `item` is one the user sees as it comes (a progress report, a warning): it wakes
    /// a waiting consumer at once, as a slow source (audio files on a slow disk, a process
    /// plugin) may take long to queue ``wakeAt`` more.
    private static func shownAtOnce(_ item: SourceItem) -> Bool {
        switch item {
        case .progress, .warning: true
        default: false
        }
    }

    /// What a slot holds once its item is taken: nothing to free.
    private static let taken = SourceItem.progress(bytesRead: 0, totalBytes: nil)

    /// What an item counts against the budget: a cover its bytes, an album about its size as
    /// JSON (another tool's album may hold a thousand tracks: counted as 256 bytes each, all
    /// 4 899 albums of a 50 000-track iTunes library could wait at once), anything else a little.
    private static func size(of item: SourceItem) -> Int {
        switch item {
        case .cover(_, let bytes): bytes.count + 256
        case .album(let record, _), .invalid(let record, _, _): record.details.estimatedJSONBytes + 256
        default: 256
        }
    }
}
