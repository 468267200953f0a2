import AlbumKit

/// What a ``RowStore`` needs from one database engine: connections, the two kinds of
/// transaction, the statements of its old schema versions, and its errors in words. The row
/// logic itself — tables, order, history, covers, point reads — lives in the row store, once.
///
/// ## Implementation requirements
/// - ``connect()`` opens a connection to an existing library and throws
///   ``AlbumKitError/Kind/libraryState`` ("run `albumkit init` first") when there is none.
/// - ``beginReading(_:)`` starts a transaction that sees one committed state of the library
///   for every statement in it (SQLite `BEGIN DEFERRED`, PostgreSQL `REPEATABLE READ`).
/// - ``beginWriting(_:)`` starts a transaction holding the writer lock, waiting for another
///   writer (another process, another connection) up to the lock timeout, then throwing
///   ``AlbumKitError/Kind/lockTimeout``. `COMMIT` or `ROLLBACK` (said by the row store) ends it;
///   a connection closed while holding it rolls back and so releases the lock.
/// - ``create(_:)`` makes an empty store and runs `makeSchema` on it in one transaction that
///   two creators cannot run at once; it fails when a library is there, and leaves no library
///   behind when it fails (a store left blank, as a killed create leaves it, is no library:
///   ``exists()`` is false for it and the next create makes the library in it).
/// - ``describe(_:)`` turns any failure into an ``AlbumKitError`` of the right kind naming the
///   library (a busy lock is `lockTimeout`, a damaged store `unreadableInput`, a lost server
///   `connection`); an ``AlbumKitError`` passes through unchanged.
public protocol RowStoreDriver: Sendable {
    /// A connection of this engine.
    associatedtype Connection: RowConnection

    /// Where the library is, for messages (a file path, a URL without its password).
    var location: String { get }
    /// What holds the library, for messages: "file", "database".
    var container: String { get }
    /// The table that holds the schema version (one row, one integer column `version`).
    var versionTable: String { get }

    /// Whether a library exists there.
    func exists() async throws -> Bool
    /// A new connection to the existing library.
    func connect() async throws -> Connection
    /// What says the store is still the one a kept connection saw: a connection kept idle
    /// is closed, not reused, when this changed since it was given back (SQLite: the file was
    /// replaced or rewritten beneath it — by a restore, by damage — which an open connection
    /// would not notice). A server whose tables cannot change beneath a connection says "".
    func identity() -> String
    /// Closes a connection the row store no longer keeps, rolling back any transaction it is
    /// in; returns at once (a writer dropped without finishing closes its connection here).
    func close(_ connection: Connection)
    /// Starts a reading transaction on `connection`.
    func beginReading(_ connection: Connection) async throws
    /// Starts a writing transaction holding the writer lock on `connection`.
    func beginWriting(_ connection: Connection) async throws
    /// Runs inside a save's writing transaction just before it commits, for what the engine
    /// tells others about a save (PostgreSQL: `NOTIFY`, delivered only if it commits).
    func saving(_ connection: Connection, generation: Int64) async throws
    /// Makes an empty store whose schema `makeSchema` creates, in one transaction.
    func create(_ makeSchema: @escaping @Sendable (Connection) async throws -> Void) async throws
    /// Whether `table` exists.
    func tableExists(_ table: String, on connection: Connection) async throws -> Bool
    /// The statements that take this engine's tables from version `n` to `n + 1`, for the
    /// versions before the shared layout (``RowStoreSchema/sharedLayoutVersion``); element
    /// `n` holds the step to version `n + 1`. The row store adds what every engine shares.
    var legacySchema: [[String]] { get }
    /// Statements run once on a new library, after its tables are made and inside the creating
    /// transaction, that change how the engine stores the tables and never what they hold (so
    /// no schema version records them, and a library made without them reads the same).
    var storageTuning: [String] { get }
    /// Statements that index the search columns (`search_core`, `search_text`) for
    /// `LIKE '%word%'`, run where the columns are made; each must succeed or change nothing
    /// (an engine whose index needs an extension the server lacks leaves the columns unindexed,
    /// and a search then reads every row). None when a search reads every row anyway.
    var searchIndexes: [String] { get }
    /// Statements that drop the search indexes of versions 8 and 9 where ``searchIndexes``
    /// makes them differently now; run, then ``searchIndexes``, as a library reaches version 10
    /// (``RowStoreSchema``). None when they are the same.
    var formerSearchIndexes: [String] { get }
    /// Whether a search that reads the albums' details finds the keys of the rows that may
    /// match in the index first, then reads those rows (an index that holds the search
    /// columns, so a search reads the table only for its matches), rather than filtering the
    /// table in one pass (an index that hands the table's scan only the rows that may match).
    /// A search that reads no details filters the table either way.
    var searchesThroughKeys: Bool { get }
    /// Statements that refresh what the engine's planner knows of the tables (and what else
    /// its own maintenance would, later), run after a save that added at least a tenth of the
    /// library's albums (an import into a new library) or replaced them (restore, migrate):
    /// PostgreSQL's own analysis comes a minute or more later, and until then it plans a page
    /// of a few keys as a scan of the table. None where the engine plans without statistics.
    var statisticsRefresh: [String] { get }
    /// The verb of the multi-row inserts of albums and covers: `INSERT`, or the engine's
    /// variant that ends the whole transaction on a failed constraint rather than undoing the
    /// one statement. A save that fails is rolled back whole anyway, and SQLite keeps every
    /// page a statement it may undo alone changes in a journal on disk: an import wrote more
    /// of it than the library it made (BENCHMARKS.md). Safe because no statement of a save runs
    /// after a failed one: the writer closes its connection on any failure
    /// (`RowStoreWriter.guarded`), so a transaction the engine ended is never carried on
    /// statement by statement outside one.
    var insertVerb: String { get }
    /// How a batch of covers may commit without waiting for the disk, and how the waiting is
    /// done afterwards once for all of them; nil when a commit does not wait for the disk anyway
    /// (SQLite in WAL mode with `synchronous = NORMAL`).
    var deferredDurability: DeferredDurability? { get }
    /// An expression that orders a table's rows as they lie in its file (SQLite's `rowid`:
    /// the order they were added in), or nil when the engine has none to offer. An export
    /// reads the covers in this order: read in the order of their digests, small covers
    /// scattered over the table's pages had each page read again for every cover on it.
    var storedOrder: String? { get }
    /// The ``AlbumKitError`` for a failure on this library.
    func describe(_ error: any Error) -> AlbumKitError
}

/// Commits that return before their changes reach the disk, made durable together later: the
/// engine writes its log in order, so one commit that waits for the disk makes every commit
/// before it durable too, whichever connection made them.
public struct DeferredDurability: Sendable {
    /// Run first in a transaction: its commit returns without waiting for the disk.
    public var relaxing: String
    /// A statement whose commit waits for the disk (it must write something to the log).
    public var barrier: String

    /// Commits relaxed by `relaxing`, made durable by running `barrier`.
    public init(relaxing: String, barrier: String) {
        self.relaxing = relaxing
        self.barrier = barrier
    }
}

extension RowStoreDriver {
    /// `INSERT`: a failed statement ends the transaction, or undoing it alone journals little.
    public var insertVerb: String { "INSERT" }
    /// None.
    public var storedOrder: String? { nil }
    /// The columns of the core six, for an engine's index that covers what a listing of them
    /// reads (``searchIndexes``).
    public var coreFieldColumns: String { RowStoreSQL.coreFieldColumns }
}
