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

        public init(generation: Int64, snapshot: LibrarySnapshot, order: RowOrder) {
            self.generation = generation
            self.snapshot = snapshot
            self.order = order
        }
    }

    private let stored = Mutex<Entry?>(nil)

    /// An empty cache.
    public init() {}

    /// The remembered entry if it is of `generation`, else nil.
    public func entry(at generation: Int64) -> Entry? {
        stored.withLock { entry in entry?.generation == generation ? entry : nil }
    }

    /// Remembers `entry`, replacing what was there.
    public func remember(_ entry: Entry) { stored.withLock { $0 = entry } }
}
