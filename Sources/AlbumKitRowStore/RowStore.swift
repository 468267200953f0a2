import AlbumKit
import Synchronization

/// A library kept as database rows — one row per album ordered by a sort key, a row per
/// history step, the memento as JSON, a row per lookup answer (read by key: the memento point
/// reads hand over leaves them out), covers as blobs — with the engine behind a small
/// ``RowStoreDriver``. SQLite and PostgreSQL are two drivers of this one store.
///
/// Every command costs what it touches: the memento, the count, albums by position and the
/// position of an id are indexed queries (``LibraryPointReads``, positions found through the
/// ``BlockIndex``), and a save writes only the rows its edits touch. The only thing kept
/// between calls is the small block table, remembered with the generation counter and album
/// count it was read at; every read checks them first, so a change by another process is
/// seen by the next read.
public final class RowStore<Driver: RowStoreDriver>: Sendable {
    /// The engine.
    public let driver: Driver
    let pool: ConnectionPool<Driver>
    let rows: AlbumRowReader
    private let remembered = Mutex<RememberedBlocks?>(nil)

    /// A store on `driver`'s library.
    public init(driver: Driver) {
        self.driver = driver
        pool = ConnectionPool(driver: driver)
        rows = AlbumRowReader(location: driver.location, container: driver.container)
    }

    /// The covers, kept in the same database.
    public var covers: any CoverStore { RowCoverStore(store: self) }

    /// Reads of one album, the count and the memento, each on its own (see ``LibraryPointReads``).
    public var pointReads: any LibraryPointReads { StoreReads(store: self) }

    /// Whether a library exists there.
    public func exists() async throws -> Bool {
        do { return try await driver.exists() } catch { throw driver.describe(error) }
    }

    /// Creates an empty library; fails when one exists.
    public func create() async throws {
        do {
            try await driver.create { [driver] connection in try await RowStoreSchema.create(on: connection, driver) }
        } catch {
            throw driver.describe(error)
        }
        remembered.withLock { $0 = nil }
    }

    /// Every album and the memento with its lookup answers, in one reading transaction.
    public func load() async throws -> LibrarySnapshot {
        try await withReader(transaction: true) { reader in
            let state = try await reader.stateWithAnswers()
            return LibrarySnapshot(albums: try await reader.everyAlbum(), state: state)
        }
    }

    /// The memento (with its lookup answers, read from their table, when `lookups`), then every
    /// album in runs of at most `size`, in one reading transaction, each run handed over as
    /// soon as it is read: when the read is bounded, a statement a run, the next read once the
    /// consumer has room for it, else one statement (``RowReader/everyAlbum(inRunsOf:details:_:)``).
    /// The details column is read only when `details` names a field beyond the core six, and
    /// only those fields are parsed.
    public func load(
        pagesOf size: Int, details: Set<AlbumField>, lookups: Bool, into piece: @escaping @Sendable (LibraryPiece) -> Void
    ) async throws {
        try await withReader(transaction: true) { reader in
            piece(.state(lookups ? try await reader.stateWithAnswers() : try await reader.state()))
            try await reader.everyAlbum(inRunsOf: size, details: details) { piece(.albums($0)) }
        }
    }

    /// What ``load(pagesOf:details:lookups:into:)`` hands over with every field and the lookup
    /// answers, each album's details as their stored text where it is in the writer's form.
    func loadWithText(pagesOf size: Int, into piece: @escaping @Sendable (PieceWithText) -> Void) async throws {
        try await withReader(transaction: true) { reader in
            piece(.state(try await reader.stateWithAnswers()))
            try await reader.everyAlbumWithText(inRunsOf: size) { piece(.albums($0)) }
        }
    }

    /// The stored history steps `ids` names.
    public func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] {
        try await withReader(transaction: true) { reader in try await reader.steps(ids) }
    }

    /// Takes the writer lock.
    public func beginWrite() async throws -> any StorageWriter {
        try await RowStoreWriter.begin(on: self)
    }

    // MARK: - Connections

    /// Runs `body` with a reader on a leased connection — in a reading transaction when
    /// `transaction` (several statements that must see one state), else statement by
    /// statement. Failures come out described; the connection is closed after one.
    func withReader<T>(transaction: Bool, _ body: (RowReader<Driver.Connection>) async throws -> T) async throws -> T {
        let connection = try await lease()
        do {
            if transaction { try await driver.beginReading(connection) }
            let result = try await body(reader(on: connection))
            if transaction { try await connection.execute("COMMIT", []) }
            await pool.release(connection, reusable: true)
            return result
        } catch {
            await pool.release(connection, reusable: false)
            throw driver.describe(error)
        }
    }

    /// A connection of the caller's own; give it back with `pool.release`.
    func lease() async throws -> Driver.Connection {
        do { return try await pool.lease() } catch { throw driver.describe(error) }
    }

    /// A reader on `connection`.
    func reader(on connection: Driver.Connection) -> RowReader<Driver.Connection> {
        RowReader(connection: connection, rows: rows)
    }

    // MARK: - Blocks

    /// The block table as `reader` sees it (inside its transaction): the remembered one when
    /// the library is at the generation and count it was remembered at, else read.
    func blocks(_ reader: RowReader<Driver.Connection>) async throws -> (blocks: BlockIndex, generation: Int64) {
        let (generation, count) = try await reader.header()
        if let kept = remembered.withLock({ $0 }), kept.generation == generation, kept.blocks.total == count {
            return (kept.blocks, generation)
        }
        let blocks = try await reader.blocks()
        guard blocks.total == count else {
            throw rows.damaged("table albumkit_blocks counts \(blocks.total) albums, table albumkit_state \(count)")
        }
        remember(blocks, at: generation)
        return (blocks, generation)
    }

    /// Keeps `blocks` as the table at `generation`.
    func remember(_ blocks: BlockIndex, at generation: Int64) {
        remembered.withLock { $0 = RememberedBlocks(generation: generation, blocks: blocks) }
    }
}

/// The block table as last read or written, and the generation it belongs to.
struct RememberedBlocks: Sendable {
    var generation: Int64
    var blocks: BlockIndex
}

/// A row store's point reads, each on a connection of its own.
struct StoreReads<Driver: RowStoreDriver>: LibraryPointReads {
    let store: RowStore<Driver>

    func state() async throws -> LibraryState {
        try await store.withReader(transaction: false) { try await $0.state() }
    }

    func count() async throws -> Int {
        try await store.withReader(transaction: false) { try await $0.header().count }
    }

    /// The generation counter, which every save raises.
    func revision() async throws -> Int64? {
        try await store.withReader(transaction: false) { try await $0.header().generation }
    }

    func albums(in range: Range<Int>) async throws -> [Album] {
        try await store.withReader(transaction: true) { reader in
            try await reader.albums(at: range, try await store.blocks(reader).blocks).map(\.album)
        }
    }

    func index(of id: AlbumID) async throws -> Int? {
        try await store.withReader(transaction: true) { reader in try await reader.index(of: id, try await store.blocks(reader).blocks) }
    }

    func contains(_ id: AlbumID) async throws -> Bool {
        try await store.withReader(transaction: false) { try await $0.contains(id) }
    }

    func firstIndex(ofDuplicateKey key: String) async throws -> Int? {
        try await store.withReader(transaction: true) { reader in
            try await reader.firstIndex(ofDuplicateKey: key, try await store.blocks(reader).blocks)
        }
    }

    /// From their table, by key.
    func lookupAnswers(_ keys: [String]) async throws -> [String: LookupAnswer] {
        try await store.withReader(transaction: keys.count > RowStoreSQL.lookupBatch) { try await $0.lookupAnswers(keys) }
    }
}

/// A ``StorageBackend`` that is a ``RowStore``: conforming types (`SQLiteStorage`,
/// `PostgresStorage`) name their store and get every requirement from it.
public protocol RowStoreBackend: StorageBackend {
    /// The engine.
    associatedtype Driver: RowStoreDriver
    /// The store the backend is.
    var store: RowStore<Driver> { get }
}

extension RowStoreBackend {
    public var location: String { store.driver.location }
    public var covers: any CoverStore { store.covers }
    public var pointReads: (any LibraryPointReads)? { store.pointReads }
    public func exists() async throws -> Bool { try await store.exists() }
    public func create() async throws { try await store.create() }
    public func load() async throws -> LibrarySnapshot { try await store.load() }
    public func load(
        pagesOf size: Int, details: Set<AlbumField>, lookups: Bool, into piece: @escaping @Sendable (LibraryPiece) -> Void
    ) async throws {
        try await store.load(pagesOf: size, details: details, lookups: lookups, into: piece)
    }
    public func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] { try await store.steps(ids) }
    /// ``DetailsTextReading``'s read, for the backends that declare it.
    package func loadWithText(pagesOf size: Int, into piece: @escaping @Sendable (PieceWithText) -> Void) async throws {
        try await store.loadWithText(pagesOf: size, into: piece)
    }
    public func beginWrite() async throws -> any StorageWriter { try await store.beginWrite() }
}
