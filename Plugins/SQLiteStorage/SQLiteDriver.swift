import AlbumKit
import AlbumKitRowStore
import Foundation
import GRDB

/// The SQLite engine of a ``SQLiteStorage``, through GRDB: one file in WAL mode (readers go
/// on while one writer holds `BEGIN IMMEDIATE`; a second writer waits up to the busy timeout),
/// and SQLite's errors turned into ``AlbumKitError``s that name the file.
public struct SQLiteDriver: RowStoreDriver {
    /// The database file.
    public let path: String
    /// How long a second writer waits for the first, in seconds.
    public let lockTimeout: Double

    /// The engine for the library in `path`.
    public init(path: String, lockTimeout: Double) {
        self.path = path
        self.lockTimeout = lockTimeout
    }

    public var location: String { path }
    public var container: String { "file" }
    public var versionTable: String { "schemaVersion" }
    public var legacySchema: [[String]] { SQLiteLegacySchema.steps }
    /// None: SQLite stores a blob as it is.
    public var storageTuning: [String] { [] }
    /// A covering index of the order, the search columns and the core six's: a search reads
    /// every album's search text, and read from this index it does not walk the rows' details
    /// (a collector's album holds a dozen tracks there). SQLite has no index for
    /// `LIKE '%word%'`; this keeps the scan to the text it looks at, and a search that reads no
    /// details (a query checked on the folded text, listed as a table of the core six) is
    /// answered by the index alone: the matching rows lie on most of the table's pages when a
    /// word is common (BENCHMARKS.md).
    public var searchIndexes: [String] {
        ["CREATE INDEX albumkit_albums_search ON albumkit_albums (sort_key, search_core, search_text, \(coreFieldColumns))"]
    }
    /// Version 8's index held the order and the search columns alone.
    public var formerSearchIndexes: [String] { ["DROP INDEX IF EXISTS albumkit_albums_search"] }
    /// Through the covering index: the table's rows are read for the albums that may match.
    public var searchesThroughKeys: Bool { true }
    public var statisticsRefresh: [String] { [] }
    /// A statement that may be undone alone keeps the pages it changes in a statement journal
    /// on disk; one that ends the transaction on a failed constraint keeps none.
    public var insertVerb: String { "INSERT OR ROLLBACK" }
    /// A commit in WAL mode with `synchronous = NORMAL` does not wait for the disk.
    public var deferredDurability: DeferredDurability? { nil }
    /// `rowid`: a row's place in the table's B-tree, the order the covers were added in.
    public var storedOrder: String? { "rowid" }

    /// A file that holds no table at all is no library: it is what a `create` killed before
    /// its commit leaves (SQLite made the file; the schema's transaction never committed).
    public func exists() async throws -> Bool {
        guard let connection = try await openLibrary() else { return false }
        close(connection)
        return true
    }

    public func connect() async throws -> SQLiteConnection {
        guard let connection = try await openLibrary() else {
            throw AlbumKitError(.libraryState, "no library at \(path): run 'albumkit init' first")
        }
        return connection
    }

    /// The file's device, inode, size and modification time: a commit by anyone changes only
    /// the WAL, so this changes when the file itself is replaced, checkpointed or damaged.
    public func identity() -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "" }
        return "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }

    public func close(_ connection: SQLiteConnection) {
        try? connection.queue.close()
    }

    public func beginReading(_ connection: SQLiteConnection) async throws {
        try await connection.execute("BEGIN DEFERRED", [])
    }

    public func beginWriting(_ connection: SQLiteConnection) async throws {
        try await connection.execute("BEGIN IMMEDIATE", [])
    }

    /// Nothing to announce: others see a save through the file (serve polls it).
    public func saving(_ connection: SQLiteConnection, generation: Int64) async throws {}

    /// The page size of a new library file, in bytes (SQLite's default is 4 096). With larger
    /// pages a cover spans fewer of them, so an import with covers writes fewer pages to the
    /// WAL and the file, and a `list` reads fewer (BENCHMARKS.md). A file keeps the size it was
    /// made with.
    static let pageSize = 16384

    /// Creates the schema in a new file, or in a blank one a killed `create` left (see
    /// ``exists()``). A second creator waits for the first's transaction, then finds its tables.
    /// A failed create leaves the file blank, never removed: another creator may be filling it.
    public func create(_ makeSchema: @escaping @Sendable (SQLiteConnection) async throws -> Void) async throws {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        let connection = try open()
        defer { close(connection) }
        guard try await isBlank(connection) else {
            throw AlbumKitError(.libraryState, "a library already exists at \(path); it was left as it is")
        }
        try await connection.execute("PRAGMA page_size = \(Self.pageSize)", [])
        try await connection.execute("PRAGMA journal_mode = WAL", [])
        try await beginWriting(connection)
        do {
            try await makeSchema(connection)
            try await connection.execute("COMMIT", [])
        } catch {
            try? await connection.execute("ROLLBACK", [])
            throw error
        }
    }

    public func tableExists(_ table: String, on connection: SQLiteConnection) async throws -> Bool {
        try await connection.first("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]) {
            try $0.integer(0)
        } ?? 0 > 0
    }

    public func describe(_ error: any Error) -> AlbumKitError {
        if let error = error as? AlbumKitError { return error }
        guard let error = error as? DatabaseError else {
            return AlbumKitError(.fileSystem, "\(path): \(error)")
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return AlbumKitError(.lockTimeout, "\(path): another writer held the library for more than \(lockTimeout) seconds; nothing was changed")
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return AlbumKitError(.unreadableInput, "\(path): not a readable SQLite library (\(error.message ?? "\(error.resultCode)")); the file was left as it is")
        default:
            return AlbumKitError(.fileSystem, "\(path): SQLite failed: \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// A connection to the library, or nil when the file is missing or blank.
    private func openLibrary() async throws -> SQLiteConnection? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let connection = try open()
        let blank: Bool
        do {
            blank = try await isBlank(connection)
        } catch {
            close(connection)
            throw error
        }
        if blank { close(connection) }
        return blank ? nil : connection
    }

    /// Whether the database holds no table, index or view.
    private func isBlank(_ connection: SQLiteConnection) async throws -> Bool {
        do {
            return try await connection.first("SELECT count(*) FROM sqlite_master", [], { try $0.integer(0) }) == 0
        } catch {
            throw describe(error)
        }
    }

    private func open() throws -> SQLiteConnection {
        var configuration = Configuration()
        configuration.busyMode = .timeout(lockTimeout)
        configuration.allowsUnsafeTransactions = true  // the row store's transactions span several calls
        configuration.label = "albumkit"
        // WAL with synchronous=NORMAL: a commit survives a crash of the process (what a
        // killed command needs) without an fsync per change; only a power cut may lose
        // the last commits, never consistency.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        do {
            return SQLiteConnection(queue: try DatabaseQueue(path: path, configuration: configuration))
        } catch {
            throw describe(error)
        }
    }
}
