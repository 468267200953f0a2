import AlbumKit
import GRDB

/// A writer session of an ``SQLiteStorage``: its own connection inside `BEGIN IMMEDIATE`
/// (SQLite's writer lock) from ``begin(on:cache:)`` until a save commits or ``finish()``
/// rolls back. A writer dropped without `finish` closes its connection, which rolls back.
actor SQLiteWriter: StorageWriter {
    private let database: SQLiteDatabase
    private let cache: GenerationCache
    private var queue: DatabaseQueue?
    private var inTransaction = false
    /// Generation and row order as loaded under the lock (the albums went to the caller),
    /// or the library as this writer last saved it.
    private var loaded: GenerationCache.Entry?

    private init(database: SQLiteDatabase, cache: GenerationCache, queue: DatabaseQueue) {
        self.database = database
        self.cache = cache
        self.queue = queue
    }

    /// Opens a connection and takes the writer lock, waiting up to the busy timeout.
    static func begin(on database: SQLiteDatabase, cache: GenerationCache) async throws -> SQLiteWriter {
        let writer = SQLiteWriter(database: database, cache: cache, queue: try await database.connect())
        try await writer.lock()
        return writer
    }

    func load() async throws -> LibrarySnapshot {
        try await lock()
        var entry = try await database.run(try session()) { [database, cache] db in
            try SQLiteRows.read(db, database: database, cache: cache, taking: true)
        }
        let snapshot = entry.handOutSnapshot()
        loaded = entry
        return snapshot
    }

    func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws {
        try await lock()
        if loaded == nil { _ = try await load() }
        // Held only here from now on, so the order changes in place.
        guard var base = loaded.take() else { return }
        base.snapshot = LibrarySnapshot()
        let generation = base.generation
        let operations = try base.order.operations(for: change, snapshot: snapshot)
        let saved = GenerationCache.Entry(generation: generation + 1, snapshot: snapshot, order: base.order)
        try await database.run(try session()) { [database] db in
            do {
                guard try Int64.fetchOne(db, sql: "SELECT generation FROM libraryState WHERE id = 1") == generation else {
                    throw AlbumKitError(.libraryState, "\(database.path): the library changed since this writer read it; nothing was saved")
                }
                try SQLiteRows.write(operations, change: change, state: snapshot.state, generation: saved.generation, db)
                try db.execute(sql: "COMMIT")
            } catch {
                try? db.execute(sql: "ROLLBACK")
                throw error
            }
        }
        inTransaction = false
        loaded = saved
        cache.remember(saved)
    }

    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] {
        try await lock()
        return try await database.run(try session()) { [database] db in try SQLiteRows.steps(ids, db, path: database.path) }
    }

    func finish() async {
        loaded = nil
        guard let queue else { return }
        if inTransaction { try? await queue.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") } }
        inTransaction = false
        try? queue.close()
        self.queue = nil
    }

    /// Takes the writer lock again if a save released it (a second save in one session).
    private func lock() async throws {
        guard !inTransaction else { return }
        try await database.run(try session()) { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        inTransaction = true
    }

    private func session() throws -> DatabaseQueue {
        guard let queue else { throw AlbumKitError(.libraryState, "\(database.path): this writer has finished") }
        return queue
    }
}
