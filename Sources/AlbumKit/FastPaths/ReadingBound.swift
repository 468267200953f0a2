import Foundation

/// How far a store's reading thread may run ahead of the task that takes what it reads
/// (``StorageBackend/pieces(inRunsOf:details:lookups:ahead:)``). A store hands its runs over from
/// its reading thread as fast as it parses them; a consumer slower than that (an export
/// encoding each album back to JSON) would leave the runs to pile up in memory, as many as
/// the scheduling allows: a large export's peak swung from run to run, past its aim
/// (BENCHMARKS.md, the `.tar.zst` export).
///
/// The reader waits before handing a piece over while `limit` are handed over and not yet
/// taken. It waits only where its store said it reads on a thread of its own
/// (``readsOnItsOwnThread``: SQLite's queue): a store reading on the tasks' shared threads
/// (PostgreSQL's rows come through `await`) is never held, for such a thread must not block
/// while others wait for it to run; such a store reads ahead as before.
///
/// For this package's own modules, not part of the toolkit's API.
package final class ReadingBound: @unchecked Sendable {
    /// Set by a store around the reads it runs on a thread of its own, where a reader waiting
    /// holds up nothing else.
    @TaskLocal package static var readsOnItsOwnThread = false

    /// Guards ``waiting`` and ``open``.
    private let condition = NSCondition()
    private let limit: Int
    /// Pieces handed over and not yet taken.
    private var waiting = 0
    /// Nothing will take any more (the consumer stopped): the reader no longer waits.
    private var open = false

    /// A bound of `limit` pieces (at least one).
    init(limit: Int) { self.limit = max(limit, 1) }

    /// Called by the reader before it hands a piece over.
    func handing() {
        let onItsOwnThread = Self.readsOnItsOwnThread
        condition.lock()
        defer { condition.unlock() }
        while onItsOwnThread, waiting >= limit, !open { condition.wait() }
        waiting += 1
    }

    /// Called by the consumer for each piece it takes.
    func took() {
        condition.lock()
        defer { condition.unlock() }
        waiting -= 1
        condition.signal()
    }

    /// The consumer is gone: the reader runs on (to its end or its cancellation) without waiting.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        open = true
        condition.broadcast()
    }
}
