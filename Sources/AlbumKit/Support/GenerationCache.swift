import Synchronization

/// The library as a database backend last read or wrote it, tagged with the database's
/// generation counter (bumped by every save). When the counter has not moved, a backend
/// can hand out the remembered snapshot instead of reading every row again — which keeps a
/// change through ``Library`` cheap on a large library.
public final class GenerationCache: Sendable {
    /// One remembered state of the library.
    public struct Entry: Sendable {
        /// The generation counter the database held.
        public var generation: Int64
        /// The library at that generation.
        public var snapshot: LibrarySnapshot
        /// Its row order.
        public var order: RowOrder

        /// The library `snapshot`, with its row `order`, at `generation`.
        public init(generation: Int64, snapshot: LibrarySnapshot, order: RowOrder) {
            self.generation = generation
            self.snapshot = snapshot
            self.order = order
        }

        /// Moves the snapshot out to the caller and leaves this entry with its generation
        /// and row order, so the caller holds the only reference to the albums and a change
        /// is made in place (no copy of 100 000 albums per change).
        public mutating func handOutSnapshot() -> LibrarySnapshot {
            defer { snapshot = LibrarySnapshot() }
            return snapshot
        }
    }

    private let stored = Mutex<Entry?>(nil)

    /// An empty cache.
    public init() {}

    /// The remembered entry if it is of `generation`, else nil.
    public func entry(at generation: Int64) -> Entry? {
        stored.withLock { entry in entry?.generation == generation ? entry : nil }
    }

    /// Removes and returns the entry if it is of `generation`, so that a writer owns the
    /// only copy and can change its row order in place (no copy of 100 000 keys per change).
    /// The writer remembers what it saves; when it saves nothing the cache stays empty and
    /// the next read fetches the rows.
    public func take(at generation: Int64) -> Entry? {
        stored.withLock { entry in
            guard entry?.generation == generation else { return nil }
            defer { entry = nil }
            return entry
        }
    }

    /// Remembers `entry`, replacing what was there.
    public func remember(_ entry: Entry) { stored.withLock { $0 = entry } }
}
