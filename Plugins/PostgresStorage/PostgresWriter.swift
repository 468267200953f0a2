import AlbumKit
import PostgresNIO

/// A writer session of a ``PostgresStorage``: a leased connection inside a transaction that
/// holds the library's row lock (`SELECT … FOR UPDATE` on `albumkit_state`, waiting up to
/// `lock_timeout`) until a save commits or ``finish()`` rolls back. A writer dropped without
/// `finish` closes its connection, and the server rolls back.
actor PostgresWriter: StorageWriter {
    private let sessions: PostgresSessions
    private let cache: GenerationCache
    private var connection: PostgresConnection?
    private var inTransaction = false
    /// The generation read under the row lock in the current transaction.
    private var lockedGeneration: Int64?
    /// Generation and row order as loaded under the lock (the albums went to the caller),
    /// or the library as this writer last saved it.
    private var loaded: GenerationCache.Entry?

    private init(sessions: PostgresSessions, cache: GenerationCache, connection: PostgresConnection) {
        self.sessions = sessions
        self.cache = cache
        self.connection = connection
    }

    deinit {
        connection?.retire()
    }

    /// Leases a connection and takes the lock.
    static func begin(with sessions: PostgresSessions, cache: GenerationCache) async throws -> PostgresWriter {
        let connection = try await sessions.lease()
        let writer = PostgresWriter(sessions: sessions, cache: cache, connection: connection)
        do {
            try await sessions.ensureSchema(connection)
            try await writer.lock()
        } catch {
            await writer.abandon()
            throw sessions.describe(error)
        }
        return writer
    }

    func load() async throws -> LibrarySnapshot {
        try await guarded { connection in
            try await lock()
            var entry = try await PostgresRows.read(connection, logger: sessions.log, url: sessions.url, cache: cache, taking: true)
            let snapshot = entry.handOutSnapshot()
            loaded = entry
            return snapshot
        }
    }

    func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws {
        try await guarded { connection in
            let expected = try await lock()
            if loaded == nil { loaded = try await PostgresRows.read(connection, logger: sessions.log, url: sessions.url, cache: cache, taking: true) }
            // Held only here from now on, so the order changes in place.
            guard var base = loaded.take() else { return }
            base.snapshot = LibrarySnapshot()
            guard base.generation == expected else {
                throw AlbumKitError(.libraryState, "\(sessions.url): the library changed since this writer read it; nothing was saved")
            }
            let operations = try base.order.operations(for: change, snapshot: snapshot)
            let saved = GenerationCache.Entry(generation: base.generation + 1, snapshot: snapshot, order: base.order)
            try await PostgresRows.write(operations, change: change, state: snapshot.state, generation: saved.generation, connection, logger: sessions.log)
            // Delivered to listeners (serve) only when the transaction commits.
            try await connection.run("NOTIFY \(PostgresStorage.changeChannel), '\(saved.generation)'", logger: sessions.log)
            try await connection.run("COMMIT", logger: sessions.log)
            inTransaction = false
            loaded = saved
            cache.remember(saved)
        }
    }

    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] {
        try await guarded { connection in
            _ = try await lock()
            return try await PostgresRows.steps(ids, connection, logger: sessions.log, url: sessions.url)
        }
    }

    func finish() async {
        loaded = nil
        guard let connection else { return }
        self.connection = nil
        if inTransaction {
            inTransaction = false
            do {
                try await connection.run("ROLLBACK", logger: sessions.log)
            } catch {
                await sessions.release(connection, reusable: false)
                return
            }
        }
        await sessions.release(connection, reusable: true)
    }

    /// Takes the lock if this session does not hold it (again, after a save); returns the
    /// generation the library is at. The connection's `lock_timeout` bounds the wait.
    @discardableResult
    private func lock() async throws -> Int64 {
        if inTransaction, let lockedGeneration { return lockedGeneration }
        let connection = try session()
        if !inTransaction {
            try await connection.run("BEGIN", logger: sessions.log)
            inTransaction = true
        }
        var generation: Int64?
        let rows = try await connection.query("SELECT generation FROM albumkit_state WHERE id = 1 FOR UPDATE", logger: sessions.log)
        for try await value in rows.decode(Int64.self) { generation = value }
        guard let generation else {
            throw AlbumKitError(.unreadableInput, "\(sessions.url): table albumkit_state has no row; the database was left as it is")
        }
        lockedGeneration = generation
        return generation
    }

    /// Runs `body` on the session's connection; on failure the transaction is abandoned
    /// (the connection closed, so the server rolls back) and the error described.
    private func guarded<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await body(try session())
        } catch {
            await abandon()
            throw sessions.describe(error)
        }
    }

    private func abandon() async {
        guard let connection else { return }
        self.connection = nil
        inTransaction = false
        await sessions.release(connection, reusable: false)
    }

    private func session() throws -> PostgresConnection {
        guard let connection else { throw AlbumKitError(.libraryState, "\(sessions.url): this writer has finished") }
        return connection
    }
}
