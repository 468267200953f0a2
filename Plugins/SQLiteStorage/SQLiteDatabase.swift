import AlbumKit
import Foundation
import GRDB
import Synchronization

/// Opens connections to one library file and turns SQLite's errors into ``AlbumKitError``s
/// that name the file. Readers and the cover store share one connection, kept open for the
/// life of the backend (GRDB runs their transactions one at a time); each writer session
/// opens its own. The kept connection also spares every change a WAL checkpoint: SQLite
/// checkpoints when the *last* connection to a file closes.
struct SQLiteDatabase: Sendable {
    let path: String
    let lockTimeout: Double
    private let kept = KeptConnection()

    init(path: String, lockTimeout: Double) {
        self.path = path
        self.lockTimeout = lockTimeout
    }

    /// The connection readers share, opened (and checked) on first use.
    func shared() async throws -> DatabaseQueue {
        if let queue = kept.queue.withLock({ $0 }) { return queue }
        let queue = try await connect()
        return kept.queue.withLock { kept in
            if let existing = kept { return existing }
            kept = queue
            return queue
        }
    }

    /// A connection to the existing library, its schema checked and, when it is from an
    /// older albumkit, upgraded; an absent file is an error saying to run `init`.
    func connect() async throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else {
            throw AlbumKitError(.libraryState, "no library at \(path): run 'albumkit init' first")
        }
        let queue = try open()
        try await run(queue) { [path] db in
            guard try SQLiteSchema.check(db, path: path) < SQLiteSchema.currentVersion else { return }
            try transaction(db) { try SQLiteSchema.upgrade(db, from: try SQLiteSchema.check(db, path: path)) }
        }
        return queue
    }

    /// Makes the file, the schema and the empty memento in one transaction.
    func create() async throws {
        let queue = try open()
        defer { try? queue.close() }
        try await run(queue) { [path] db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try transaction(db) { try SQLiteSchema.create(db, path: path) }
        }
    }

    /// Runs `body` in a transaction — `BEGIN IMMEDIATE` (taking the writer lock) or, for a
    /// reader, `BEGIN DEFERRED` (one consistent view) — committed when it returns, rolled
    /// back when it throws.
    func transaction<T>(_ db: Database, immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try db.execute(sql: immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let result = try body()
            try db.execute(sql: "COMMIT")
            return result
        } catch {
            try? db.execute(sql: "ROLLBACK")
            throw error
        }
    }

    /// Runs `body` on `queue` outside any transaction GRDB would open, with errors mapped.
    func run<T: Sendable>(_ queue: DatabaseQueue, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await queue.writeWithoutTransaction(body)
        } catch let error as DatabaseError {
            throw describe(error)
        }
    }

    /// The ``AlbumKitError`` for an SQLite failure on this file.
    func describe(_ error: DatabaseError) -> AlbumKitError {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            AlbumKitError(.lockTimeout, "\(path): another writer held the library for more than \(lockTimeout) seconds; nothing was changed")
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            AlbumKitError(.unreadableInput, "\(path): not a readable SQLite library (\(error.message ?? "\(error.resultCode)")); the file was left as it is")
        default:
            AlbumKitError(.fileSystem, "\(path): SQLite failed: \(error.message ?? "\(error.resultCode)")")
        }
    }

    private func open() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(lockTimeout)
        configuration.allowsUnsafeTransactions = true  // a writer session spans several calls
        configuration.label = "albumkit"
        // WAL with synchronous=NORMAL: a commit survives a crash of the process (what a
        // killed command needs) without an fsync per change; only a power cut may lose
        // the last commits, never consistency.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        do {
            return try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError {
            throw describe(error)
        }
    }
}

/// The connection an ``SQLiteDatabase`` keeps open, shared by its copies.
private final class KeptConnection: Sendable {
    let queue = Mutex<DatabaseQueue?>(nil)
}
