import Synchronization

/// Albums a change adds at the end of the library, in order — an import's, an add's — as a
/// backend saves them (``StoredChange/Albums/appending(_:after:)``) or an exporter writes them.
///
/// Read them a run at a time with ``reader()``: a large import is never held whole unless the
/// backend must hold the whole library to write it (``all()``). Where the albums wait until
/// then is the library's business, not the backend's.
public struct AlbumRun: Sendable, Hashable {
    /// The albums, when they are held in memory (empty for a run written out).
    private let held: [Album]
    /// The run, when the library wrote it out as it made the change.
    private let spilled: SpilledRun?

    /// `albums`, to append in this order, held in memory.
    public init(_ albums: some Sequence<Album>) {
        held = Array(albums)
        spilled = nil
    }

    /// A run the library wrote out as it made the change.
    package init(_ run: SpilledRun) {
        held = []
        spilled = run
    }

    /// How many albums are appended.
    public var count: Int { spilled?.count ?? held.count }

    /// Whether an album of the run names a cover (has a `coverUrl`): when none does, the run
    /// asks for no cover, and the library need not read it back to find out.
    var namesCovers: Bool { spilled?.namesCovers ?? held.contains { $0.coverUrl != nil } }

    /// The first album's id (nil when there are none).
    public var first: AlbumID? { if let spilled { spilled.first } else { held.first?.id } }

    /// The last album's id (nil when there are none).
    public var last: AlbumID? { if let spilled { spilled.last } else { held.last?.id } }

    /// A reader of the albums, from the first.
    public func reader() -> Reader {
        Self.readersOpened?.opened()
        return spilled.map { Reader(spilled: $0.reader()) } ?? Reader(held: held)
    }

    /// The albums as they were first written, before a later album of the same change
    /// replaced one (what an import reports it added).
    package func readerAsWritten() -> Reader {
        Self.readersOpened?.opened()
        return spilled.map { Reader(spilled: $0.readerAsWritten()) } ?? Reader(held: held)
    }

    /// A test hook: counts the readers opened on runs (``reader()``, ``readerAsWritten()``) by
    /// the task that binds it and its child tasks, so that a test can tell whether a library
    /// read an import's albums back (for events nobody takes, it must not). Once a reader, not
    /// once an album: nil, as everywhere but in that test, costs one task-local read a run.
    @TaskLocal package static var readersOpened: ReaderCount?

    /// How many readers were opened on runs while ``readersOpened`` was bound to it.
    package final class ReaderCount: Sendable {
        private let count = Atomic(0)

        package init() {}

        /// The readers opened so far.
        package var value: Int { count.load(ordering: .relaxed) }

        fileprivate func opened() { count.add(1, ordering: .relaxed) }
    }

    /// Every album, in order: for a backend that must hold the whole library to write it (a
    /// property list), and for tests.
    public func all() throws -> [Album] {
        guard spilled != nil else { return held }
        var all: [Album] = []
        all.reserveCapacity(count)
        var reader = reader()
        while let album = try reader.next() { all.append(album) }
        return all
    }

    /// Reads the albums in order.
    public struct Reader {
        /// The albums held in memory, read from `nextHeld`; empty for a spilled run.
        private let held: [Album]
        private var nextHeld = 0
        /// The reader of a spilled run (changed in place: a copy would copy its buffer).
        private var spilled: SpilledRun.Reader?

        fileprivate init(held: [Album]) {
            self.held = held
            spilled = nil
        }

        fileprivate init(spilled: SpilledRun.Reader) {
            held = []
            self.spilled = spilled
        }

        /// The next album, or nil after the last.
        public mutating func next() throws -> Album? {
            if spilled != nil { return try spilled!.next() }
            guard nextHeld < held.count else { return nil }
            defer { nextHeld += 1 }
            return held[nextHeld]
        }

        /// The next albums, at most `size` of them (none after the last).
        public mutating func next(upTo size: Int) throws -> [Album] {
            var run: [Album] = []
            run.reserveCapacity(max(size, 1))
            while run.count < max(size, 1), let album = try next() { run.append(album) }
            return run
        }
    }
}
