import Foundation

/// How far a store's read may run ahead of the task that takes what it reads
/// (``StorageBackend/pieces(inRunsOf:details:lookups:ahead:)``). A store hands its runs over
/// as fast as it reads them; a consumer slower than that (an export encoding each album back
/// to JSON) would leave the runs to pile up in memory, as many as the scheduling allows: a
/// large export's peak swung from run to run, past its aim (BENCHMARKS.md, the `.tar.zst`
/// export).
///
/// A store that reads a run at a time (the row store, a statement a run) asks for
/// ``room()`` before each, and is suspended there while `limit` pieces are handed over and
/// not yet taken. It never blocks a thread: a store reading on the tasks' shared threads
/// (PostgreSQL's rows come through `await`) must not hold one while others wait for it to run.
///
/// A bound serves one reader: one statement at a time waits in ``room()`` (a row store's
/// runs, read one after another on one connection). A second waiter while one waits is a
/// misuse that would leave one of them suspended for ever, so it stops the program instead.
///
/// For this package's own modules, not part of the toolkit's API.
package final class ReadingBound: @unchecked Sendable {
    /// The bound of the read the current task does for a consumer, if any.
    @TaskLocal static var current: ReadingBound?

    /// Guards ``waiting``, ``open`` and ``reader``.
    private let lock = NSLock()
    private let limit: Int
    /// Pieces handed over and not yet taken.
    private var waiting = 0
    /// Nothing will take any more (the consumer stopped): the reader no longer waits.
    private var open = false
    /// The read waiting for room, resumed when there is some.
    private var reader: CheckedContinuation<Void, Never>?

    /// A bound of `limit` pieces (at least one).
    init(limit: Int) { self.limit = max(limit, 1) }

    /// Whether the current task's read is bounded, so that ``room()`` may hold it back. A store
    /// that reads in several statements only to wait for room between them may read in one
    /// when it is not.
    package static var holdsBack: Bool { current != nil }

    /// Returns once the current task's read may hand over another piece: at once when the
    /// read is not bounded (not read for a consumer) or its consumer is within the bound.
    package static func room() async {
        guard let bound = current else { return }
        await withCheckedContinuation { continuation in
            let now = bound.lock.withLock {
                guard bound.waiting >= bound.limit, !bound.open else { return true }
                precondition(bound.reader == nil, "a reading bound serves one reader: another read is already waiting for room")
                bound.reader = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Called by the reader as it hands a piece over.
    func handing() {
        lock.withLock { waiting += 1 }
    }

    /// Called by the consumer for each piece it takes.
    func took() {
        lock.withLock { () -> CheckedContinuation<Void, Never>? in
            waiting -= 1
            guard waiting < limit else { return nil }
            defer { reader = nil }
            return reader
        }?.resume()
    }

    /// The consumer is gone: the reader runs on (to its end or its cancellation) without waiting.
    func stop() {
        lock.withLock { () -> CheckedContinuation<Void, Never>? in
            open = true
            defer { reader = nil }
            return reader
        }?.resume()
    }
}
