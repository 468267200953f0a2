import AlbumKit
import Synchronization

/// A store that notes how it is read: whole (`load()`), or in runs of what size — with the
/// details parsed, or as their text when `inner` reads them so (``DetailsTextReading``, the
/// read an export takes) — and how many pieces (the memento and the runs) it has handed over
/// so far; everything else is `inner`'s.
public final class ReadsRecorded<Inner: StorageBackend>: StorageBackend {
    /// The store read.
    public let inner: Inner
    /// How many whole reads, the run size of each read in runs, and that of each read in runs
    /// with the details as text.
    public let reads = Mutex<(whole: Int, runs: [Int], runsWithText: [Int])>((0, [], []))
    /// The pieces handed over so far.
    public let handed = Mutex(0)

    /// `inner`, its reads noted.
    public init(_ inner: Inner) { self.inner = inner }

    public var location: String { inner.location }
    public var covers: any CoverStore { inner.covers }
    public var pointReads: (any LibraryPointReads)? { inner.pointReads }
    public func exists() async throws -> Bool { try await inner.exists() }
    public func create() async throws { try await inner.create() }
    public func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] { try await inner.steps(ids) }
    public func beginWrite() async throws -> any StorageWriter { try await inner.beginWrite() }

    /// `inner`'s whole read, counted.
    public func load() async throws -> LibrarySnapshot {
        reads.withLock { $0.whole += 1 }
        return try await inner.load()
    }

    /// `inner`'s read in runs, its run size noted and its pieces counted.
    public func load(
        pagesOf size: Int, details: Set<AlbumField>, lookups: Bool, into piece: @escaping @Sendable (LibraryPiece) -> Void
    ) async throws {
        reads.withLock { $0.runs.append(size) }
        try await inner.load(pagesOf: size, details: details, lookups: lookups) { read in
            self.handed.withLock { $0 += 1 }
            piece(read)
        }
    }
}

/// `inner`'s read with the details as text, recorded as ``ReadsRecorded`` records its other reads.
extension ReadsRecorded: DetailsTextReading where Inner: DetailsTextReading {
    /// `inner`'s read in runs with the details as text, its run size noted and its pieces counted.
    package func loadWithText(pagesOf size: Int, into piece: @escaping @Sendable (PieceWithText) -> Void) async throws {
        reads.withLock { $0.runsWithText.append(size) }
        try await inner.loadWithText(pagesOf: size) { read in
            self.handed.withLock { $0 += 1 }
            piece(read)
        }
    }
}
