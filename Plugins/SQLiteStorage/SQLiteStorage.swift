import AlbumKit
import Foundation
import GRDB

/// A library in one SQLite file, through GRDB: albums one row each ordered by a sort key,
/// covers as blobs keyed by SHA-256, and the memento as JSON — so a change writes only the
/// rows it touched. WAL mode lets readers go on while one writer holds `BEGIN IMMEDIATE`;
/// a second writer waits up to the busy timeout.
public struct SQLiteStorage: StorageBackend {
    /// The database file.
    public let file: URL
    /// The covers, kept in the same database.
    public let covers: any CoverStore
    let database: SQLiteDatabase
    let cache = GenerationCache()

    /// A library in `file`; a second writer waits `lockTimeout` seconds for the first.
    public init(file: URL, lockTimeout: Double = 30) {
        self.file = file
        database = SQLiteDatabase(path: file.path, lockTimeout: lockTimeout)
        covers = SQLiteCoverStore(database: database)
    }

    public var location: String { file.path }

    public func exists() async throws -> Bool { FileManager.default.fileExists(atPath: file.path) }

    public func create() async throws {
        guard !FileManager.default.fileExists(atPath: file.path) else {
            throw AlbumKitError(.libraryState, "a library already exists at \(file.path); it was left as it is")
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            try await database.create()
        } catch {
            // The file is new: leave no half-made library behind.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
            throw error
        }
    }

    public func load() async throws -> LibrarySnapshot {
        try await database.run(try await database.shared()) { [cache, database] db in
            try database.transaction(db, immediate: false) { try SQLiteRows.read(db, database: database, cache: cache) }
        }.snapshot
    }

    public func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] {
        try await database.run(try await database.shared()) { [database] db in
            try database.transaction(db, immediate: false) { try SQLiteRows.steps(ids, db, path: database.path) }
        }
    }

    public func beginWrite() async throws -> any StorageWriter {
        try await SQLiteWriter.begin(on: database, cache: cache)
    }
}

extension StorageBackendFactory {
    /// `sqlite`: the library in one SQLite database file (default `library.sqlite` in the
    /// library folder, or `storage.path`), covers inside it.
    public static let sqlite = StorageBackendFactory(
        name: "sqlite", summary: "one SQLite database (library.sqlite, WAL mode) holding albums, covers and history",
        settings: [.libraryFile("library.sqlite")]
    ) { configuration in
        SQLiteStorage(
            file: configuration.resolve(configuration.backendSettings("sqlite").string("path") ?? "library.sqlite"),
            lockTimeout: configuration.storage.lockTimeoutSeconds)
    }
}
