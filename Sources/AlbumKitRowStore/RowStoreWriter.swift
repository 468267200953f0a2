import AlbumKit

/// A writer session of a ``RowStore``: a leased connection inside a writing transaction that
/// holds the writer lock from ``begin(on:)`` until a save commits or ``finish()`` rolls back.
/// A read after a save takes the lock again. On any failure the connection is closed (so the
/// database rolls back), as it is when a writer is dropped without ``finish()``.
actor RowStoreWriter<Driver: RowStoreDriver>: StorageWriter {
    private let store: RowStore<Driver>
    private var connection: Driver.Connection?
    /// The generation and blocks under the lock; nil while the lock is not held.
    private var locked: RememberedBlocks?
    /// The memento and album count of this writer's last save, while the lock is not held.
    private var saved: (state: LibraryState, count: Int)?

    private init(store: RowStore<Driver>, connection: Driver.Connection) {
        self.store = store
        self.connection = connection
    }

    deinit {
        if let connection { store.driver.close(connection) }
    }

    /// Leases a connection and takes the lock, waiting up to the lock timeout.
    static func begin(on store: RowStore<Driver>) async throws -> RowStoreWriter {
        let writer = RowStoreWriter(store: store, connection: try await store.lease())
        _ = try await writer.guarded { reader, _ in reader }
        return writer
    }

    func load() async throws -> LibrarySnapshot {
        try await guarded { reader, _ in
            let state = try await reader.stateWithAnswers()
            return LibrarySnapshot(albums: try await reader.everyAlbum(), state: state)
        }
    }

    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] {
        try await guarded { reader, _ in try await reader.steps(ids) }
    }

    nonisolated var pointReads: (any LibraryPointReads)? { WriterReads(writer: self) }

    func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws {
        try await guarded { reader, locked in
            var editor = RowEditor(reader: reader, blocks: locked.blocks, insertVerb: store.driver.insertVerb)
            let generation = locked.generation + 1
            try await editor.save(change, snapshot: snapshot, generation: generation)
            try await store.driver.saving(reader.connection, generation: generation)
            try await reader.connection.execute("COMMIT", [])
            self.locked = nil
            var state = snapshot.state
            state.lookups = [:]
            saved = (state, editor.blocks.total)
            store.remember(editor.blocks, at: generation)
            // After the commit, outside the lock; the statistics are the planner's hint, and a
            // refresh that fails takes nothing from the saved change.
            if Self.changesMany(change, total: editor.blocks.total) {
                for statement in store.driver.statisticsRefresh { try? await reader.connection.execute(statement, []) }
            }
        }
    }

    /// Whether `change` added at least a tenth of the `total` albums the library now holds, or
    /// replaced them all: the engine's statistics are then refreshed (``RowStoreDriver/statisticsRefresh``).
    private static func changesMany(_ change: StoredChange, total: Int) -> Bool {
        switch change.albums {
        case .replaced: true
        case .appending(let run, _): run.count > 0 && run.count * 10 >= total
        case .edits, .unchanged: false
        }
    }

    func finish() async {
        guard let connection else { return }
        self.connection = nil
        guard locked != nil else { return await store.pool.release(connection, reusable: true) }
        locked = nil
        do {
            try await connection.execute("ROLLBACK", [])
            await store.pool.release(connection, reusable: true)
        } catch {
            await store.pool.release(connection, reusable: false)
        }
    }

    // MARK: - Reads under the lock

    fileprivate func state() async throws -> LibraryState {
        if locked == nil, let saved { return saved.state }
        return try await guarded { reader, _ in try await reader.state() }
    }

    fileprivate func count() async throws -> Int {
        if locked == nil, let saved { return saved.count }
        return try await guarded { _, locked in locked.blocks.total }
    }

    fileprivate func albums(in range: Range<Int>) async throws -> [Album] {
        try await guarded { reader, locked in try await reader.albums(at: range, locked.blocks).map(\.album) }
    }

    fileprivate func index(of id: AlbumID) async throws -> Int? {
        try await guarded { reader, locked in try await reader.index(of: id, locked.blocks) }
    }

    fileprivate func firstIndex(ofDuplicateKey key: String) async throws -> Int? {
        try await guarded { reader, locked in try await reader.firstIndex(ofDuplicateKey: key, locked.blocks) }
    }

    fileprivate func lookupAnswers(_ keys: [String]) async throws -> [String: LookupAnswer] {
        try await guarded { reader, _ in try await reader.lookupAnswers(keys) }
    }

    /// Runs `body` holding the lock (taking it when a save released it). A failure closes the
    /// connection, which rolls back and releases the lock, and comes out described.
    private func guarded<T: Sendable>(
        _ body: (RowReader<Driver.Connection>, RememberedBlocks) async throws -> T
    ) async throws -> T {
        guard let connection else {
            throw AlbumKitError(.libraryState, "\(store.driver.location): this writer has finished")
        }
        do {
            let reader = store.reader(on: connection)
            if locked == nil {
                try await store.driver.beginWriting(connection)
                let (blocks, generation) = try await store.blocks(reader)
                locked = RememberedBlocks(generation: generation, blocks: blocks)
                saved = nil
            }
            return try await body(reader, locked!)
        } catch {
            // Never another statement on this connection: the engine may have ended the
            // transaction itself (``RowStoreDriver/insertVerb``).
            self.connection = nil
            locked = nil
            await store.pool.release(connection, reusable: false)
            throw store.driver.describe(error)
        }
    }
}

/// A writer's point reads, under its lock.
private struct WriterReads<Driver: RowStoreDriver>: LibraryPointReads {
    let writer: RowStoreWriter<Driver>

    func state() async throws -> LibraryState { try await writer.state() }
    func count() async throws -> Int { try await writer.count() }
    func albums(in range: Range<Int>) async throws -> [Album] { try await writer.albums(in: range) }
    func index(of id: AlbumID) async throws -> Int? { try await writer.index(of: id) }
    func firstIndex(ofDuplicateKey key: String) async throws -> Int? { try await writer.firstIndex(ofDuplicateKey: key) }
    func lookupAnswers(_ keys: [String]) async throws -> [String: LookupAnswer] { try await writer.lookupAnswers(keys) }
}
