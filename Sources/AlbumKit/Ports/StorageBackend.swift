/// Where a library lives: a file, a bundle, a database.
///
/// ## Implementation requirements
/// - ``load()`` returns the albums in order and the memento exactly as last saved; a library
///   that was never created throws ``AlbumKitError/Kind/libraryState``; a damaged one throws
///   ``AlbumKitError/Kind/unreadableInput`` naming the file or table, and is left untouched.
/// - History steps are stored apart from the memento (which lists them as ``HistoryRef``s):
///   ``steps(_:)`` reads the ones asked for, and nothing else reads them, so commands that do
///   not walk the history never load it. A library written by an earlier version (history
///   inside the memento) still loads, and is brought up to date by its first save.
/// - ``beginWrite()`` takes the writer lock, waiting up to the configured timeout for another
///   writer (process or task) to finish, then throws ``AlbumKitError/Kind/lockTimeout``.
///   Everything between it and ``StorageWriter/finish()`` is one atomic step: readers see the
///   library before or after it, never in between, and a crash leaves the old library.
/// - ``create()`` makes an empty library and fails if one exists.
/// - Covers live with the library (``covers``), so moving one moves the other.
/// - So do the lookup answers (``LibraryState/lookups``): ``load()`` and
///   ``load(pagesOf:details:lookups:into:)`` hand them over in the memento. A backend that reads by
///   points may keep them apart (a table) and leave them out of ``LibraryPointReads/state()``,
///   answering ``LibraryPointReads/lookupAnswers(_:)`` by key instead, so that a command that
///   asks about a few albums does not read every answer.
/// - A backend that can read one album without loading all of them offers ``pointReads``,
///   so that `show 5` on 100 000 albums costs what it touches.
/// - ``load(pagesOf:details:lookups:into:)`` reads what ``load()`` reads, one committed state, and hands
///   it over in order: the memento first, then every album in library order in runs of 1 to
///   `size` albums (none for an empty library). It returns once the last run is handed over.
///   It may leave out of each album's details the fields `details` does not name, where that
///   costs less (a database's column not read, a field not parsed); the core six are all there.
public protocol StorageBackend: Sendable {
    /// Where the library is, for messages ("/home/me/.local/share/albumkit/library.json").
    var location: String { get }
    /// The content-addressed cover bytes kept with this library.
    var covers: any CoverStore { get }
    /// Reads without loading the whole library, when the backend can (databases).
    var pointReads: (any LibraryPointReads)? { get }
    /// Whether a library exists here.
    func exists() async throws -> Bool
    /// Creates an empty library; fails when one exists.
    func create() async throws
    /// Reads the whole library (albums and memento, not the steps) without the writer lock.
    func load() async throws -> LibrarySnapshot
    /// Reads the whole library as ``load()`` does, handing each piece to `piece` as soon as it
    /// is read: the memento, then the albums a run of at most `size` at a time (a listing of a
    /// database works on the first albums while the rest are read). `piece` must not block.
    /// `details` names the fields beyond the core six the reader looks at: the others may be
    /// left out (a listing that shows the core six needs none). `lookups`: the memento must
    /// hold the lookup answers (an export); else a backend that keeps them apart leaves them out.
    func load(
        pagesOf size: Int, details: Set<AlbumField>, lookups: Bool, into piece: @escaping @Sendable (LibraryPiece) -> Void
    ) async throws
    /// The stored history steps `ids` names (those not stored are left out), without the lock.
    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep]
    /// Takes the writer lock and returns the session that reads and saves under it.
    func beginWrite() async throws -> any StorageWriter
}

extension StorageBackend {
    /// A backend that loads whole reads nothing apart.
    public var pointReads: (any LibraryPointReads)? { nil }

    /// Loads whole, then hands the snapshot over in pieces (details, answers and all).
    public func load(
        pagesOf size: Int, details: Set<AlbumField>, lookups: Bool, into piece: @escaping @Sendable (LibraryPiece) -> Void
    ) async throws {
        try await load().handOver(inRunsOf: size, to: piece)
    }

    /// ``load(pagesOf:details:lookups:into:)`` as a stream of its pieces, which the store reads on while
    /// the consumer works, at most `ahead` pieces ahead of it where the store waits for room
    /// (``ReadingBound``), as far as it goes when `ahead` is nil; dropping the stream cancels the read.
    func pieces(
        inRunsOf size: Int, details: Set<AlbumField> = Set(AlbumField.all), lookups: Bool = false,
        ahead: Int? = LibraryPieces<LibraryPiece>.ahead
    ) -> LibraryPieces<LibraryPiece> {
        LibraryPieces(ahead: ahead) { piece in try await load(pagesOf: size, details: details, lookups: lookups, into: piece) }
    }
}

/// The pieces of a library as a store reads them (``StorageBackend/pieces(inRunsOf:details:lookups:ahead:)``):
/// each one taken lets the store read one more.
struct LibraryPieces<Piece: Sendable>: AsyncSequence {
    typealias Element = Piece

    /// How many pieces a store reads ahead of the consumer by default: enough to read the next
    /// while the consumer works on one, few enough that the runs waiting do not count in an
    /// export's peak (BENCHMARKS.md).
    static var ahead: Int { 4 }

    fileprivate let stream: AsyncThrowingStream<Piece, any Error>
    fileprivate let bound: ReadingBound?

    /// The pieces `load` hands to its argument, read on a task of their own at most `ahead`
    /// pieces ahead of the consumer where the store waits for room (``ReadingBound/room()``),
    /// unbounded when `ahead` is nil; dropping the sequence cancels the read.
    init(ahead: Int?, _ load: @escaping @Sendable (@escaping @Sendable (Piece) -> Void) async throws -> Void) {
        let (pieces, reading) = AsyncThrowingStream<Piece, any Error>.makeStream()
        let bound = ahead.map { ReadingBound(limit: $0) }
        let reader = Task {
            do {
                try await ReadingBound.$current.withValue(bound) {
                    try await load { piece in
                        bound?.handing()
                        reading.yield(piece)
                    }
                }
                reading.finish()
            } catch {
                reading.finish(throwing: error)
            }
        }
        reading.onTermination = { _ in
            bound?.stop()
            reader.cancel()
        }
        (stream, self.bound) = (pieces, bound)
    }

    func makeAsyncIterator() -> Iterator { Iterator(pieces: stream.makeAsyncIterator(), bound: bound) }

    /// Takes the pieces in order, telling the store of each.
    struct Iterator: AsyncIteratorProtocol {
        fileprivate var pieces: AsyncThrowingStream<Piece, any Error>.Iterator
        fileprivate let bound: ReadingBound?

        mutating func next() async throws -> Piece? {
            guard let piece = try await pieces.next() else { return nil }
            bound?.took()
            return piece
        }
    }
}

extension LibrarySnapshot {
    /// Hands the memento, then the albums in runs of at most `size` (at least one), to `piece`:
    /// what ``StorageBackend/load(pagesOf:details:lookups:into:)`` hands over.
    func handOver(inRunsOf size: Int, to piece: (LibraryPiece) throws -> Void) rethrows {
        let run = max(size, 1)
        try piece(.state(state))
        for start in stride(from: 0, to: albums.count, by: run) {
            try piece(.albums(Array(albums[start..<min(start + run, albums.count)])))
        }
    }
}

/// A piece of a library read a run at a time (``StorageBackend/load(pagesOf:details:lookups:into:)``).
public enum LibraryPiece: Sendable {
    /// The memento, handed over before any album.
    case state(LibraryState)
    /// The next albums in library order.
    case albums([Album])
}

/// A session holding the writer lock of a ``StorageBackend``.
///
/// ## Implementation requirements
/// ``load()`` sees every change other writers committed before the lock was taken.
/// ``save(_:change:)`` persists atomically — the albums as the change says (an appended run's
/// too, read with its reader), the memento, the steps added and dropped, the lookup
/// answers the change gives (``StoredChange/lookups``; a change that replaces everything
/// replaces the answers with its memento's), all or nothing; a whole-file backend may rewrite
/// the file, a database backend should apply only the change.
/// ``finish()`` releases the lock and must be safe to call more than once; a writer that is
/// dropped without it releases the lock too.
public protocol StorageWriter: Sendable {
    /// The library as it is now, under the lock. Creates nothing.
    func load() async throws -> LibrarySnapshot
    /// The stored steps `ids` names, as they are under the lock.
    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep]
    /// Reads under the lock without loading the whole library, when the backend can.
    var pointReads: (any LibraryPointReads)? { get }
    /// Persists `change`. `snapshot` is the library after it: whole (``LibrarySnapshot/isWhole``)
    /// unless the session was used through ``pointReads``, in which case only its memento is
    /// meaningful and the backend applies the change's edits. A change that appends a run
    /// (``StoredChange/Albums/appending(_:after:)``) comes with a snapshot without the run: the
    /// backend writes the run's albums after the snapshot's.
    func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws
    /// Releases the lock.
    func finish() async
}

extension StorageWriter {
    /// A writer that loads whole reads nothing apart.
    public var pointReads: (any LibraryPointReads)? { nil }
}

/// Reads of a library that do not load every album (a database's indexed queries).
///
/// ## Implementation requirements
/// Each read sees one committed state of the library (a writer's, under its lock, sees its
/// own). Positions are 0-based, in library order.
public protocol LibraryPointReads: Sendable {
    /// The memento.
    func state() async throws -> LibraryState
    /// How many albums the library holds.
    func count() async throws -> Int
    /// The albums at `range` (clamped to the library).
    func albums(in range: Range<Int>) async throws -> [Album]
    /// The position of the album with `id`, if the library holds it.
    func index(of id: AlbumID) async throws -> Int?
    /// Whether the library holds the album with `id` (what opening it asks of the current
    /// album: a database answers without working out the position).
    func contains(_ id: AlbumID) async throws -> Bool
    /// The position of the first album, in library order, whose ``Album/duplicateKey`` is
    /// `key`, if any (an indexed lookup: `add` asks it before adding).
    func firstIndex(ofDuplicateKey key: String) async throws -> Int?
    /// A number that every save changes, by this process or any other, and that never comes
    /// back (a database's generation counter): what was read between two reads of the same
    /// revision is the library at that revision, so a caller may keep what it made of it
    /// (`serve` keeps each album's JSON). Nil when the backend keeps none.
    func revision() async throws -> Int64?
    /// The lookup answers stored under `keys` (``LookupAnswer/key(fetcher:identity:)``); keys
    /// with none are left out.
    func lookupAnswers(_ keys: [String]) async throws -> [String: LookupAnswer]
}

extension LibraryPointReads {
    /// Asks for the position.
    public func contains(_ id: AlbumID) async throws -> Bool { try await index(of: id) != nil }
    /// The answers the memento holds (a backend that keeps none apart).
    public func lookupAnswers(_ keys: [String]) async throws -> [String: LookupAnswer] {
        let answers = try await state().lookups
        return Dictionary(uniqueKeysWithValues: Set(keys).compactMap { key in answers[key].map { (key, $0) } })
    }
    /// None kept: nothing read is reused.
    public func revision() async throws -> Int64? { nil }
}

/// What a save changed, so that a backend can write only that.
public struct StoredChange: Sendable, Hashable {
    /// What happened to the albums.
    public enum Albums: Sendable, Hashable {
        /// Nothing: only the memento changed (a selection, recorded covers).
        case unchanged
        /// These edits were applied, in order.
        case edits([LibraryEdit])
        /// These edits were applied, in order, and then the albums of the run were added at the
        /// end of the library, in order (an import, an add). Read the run a
        /// run at a time (``AlbumRun/reader()``), never whole unless the backend must hold
        /// the whole library to write it. The snapshot saved beside this change is the library
        /// after the edits, without the run.
        case appending(AlbumRun, after: [LibraryEdit])
        /// Everything was replaced (restore, migrate, init), history included: every stored
        /// step not in ``StoredChange/addedSteps`` goes.
        case replaced
    }

    /// What happened to the albums.
    public var albums: Albums
    /// History steps to store, by id.
    public var addedSteps: [Int64: HistoryStep]
    /// History steps no longer named, to drop.
    public var droppedSteps: [Int64]
    /// Lookup answers the change gives, by key, each replacing the one stored under its key
    /// (also merged into the memento saved with it, for a backend that keeps them there).
    public var lookups: [String: LookupAnswer]

    /// A change of `albums` that stores `addedSteps`, drops `droppedSteps` and keeps `lookups`.
    public init(
        albums: Albums, addedSteps: [Int64: HistoryStep] = [:], droppedSteps: [Int64] = [], lookups: [String: LookupAnswer] = [:]
    ) {
        self.albums = albums
        self.addedSteps = addedSteps
        self.droppedSteps = droppedSteps
        self.lookups = lookups
    }

    /// Only the memento changed.
    public static let stateOnly = StoredChange(albums: .unchanged)

    /// These edits, with no change to the stored steps.
    public static func edits(_ edits: [LibraryEdit]) -> StoredChange { StoredChange(albums: .edits(edits)) }

    /// Everything replaced by a library whose steps are `steps`.
    public static func replaceAll(steps: [Int64: HistoryStep] = [:]) -> StoredChange {
        StoredChange(albums: .replaced, addedSteps: steps)
    }

    /// The edits, when the albums were edited (before the appended run, when there is one).
    public var edits: [LibraryEdit] {
        switch albums {
        case .edits(let edits), .appending(_, after: let edits): edits
        case .unchanged, .replaced: []
        }
    }

    /// The albums appended at the end after the edits, when there are any.
    public var appended: AlbumRun? {
        if case .appending(let run, _) = albums { run } else { nil }
    }

    /// How many albums the change adds to the library (negative when it removes more than it
    /// adds); nil when it replaces them all.
    var addedAlbums: Int? {
        switch albums {
        case .unchanged: 0
        case .replaced: nil
        case .edits(let edits): Self.added(by: edits)
        case .appending(let run, after: let edits): Self.added(by: edits) + run.count
        }
    }

    private static func added(by edits: [LibraryEdit]) -> Int {
        edits.reduce(0) { count, edit in
            switch edit {
            case .insert: count + 1
            case .remove: count - 1
            case .update, .move: count
            }
        }
    }
}

extension StorageBackend {
    /// Runs `body` under the writer lock with the library as it is now, releasing the lock
    /// however `body` ends.
    public func withWriter<T: Sendable>(
        _ body: (any StorageWriter, LibrarySnapshot) async throws -> T
    ) async throws -> T {
        let writer = try await beginWrite()
        do {
            let result = try await body(writer, try await writer.load())
            await writer.finish()
            return result
        } catch {
            await writer.finish()
            throw error
        }
    }
}
