import AlbumKit
import Foundation
import PostgresNIO

/// A library in a PostgreSQL database, through postgres-nio: albums one row each ordered by
/// a sort key, covers as `bytea` keyed by SHA-256, and the memento as JSON, in tables named
/// `albumkit_…` — so a change writes only the rows it touched, and many hosts can share one
/// library. Readers see one snapshot (`REPEATABLE READ`); writers queue on a row lock.
public struct PostgresStorage: StorageBackend {
    /// The covers, kept in the same database.
    public let covers: any CoverStore
    let sessions: PostgresSessions
    let cache = GenerationCache()

    /// A library at `url` (`postgres://user[:password]@host[:port]/database`); a second
    /// writer waits `lockTimeout` seconds for the first. A malformed URL is an error.
    public init(url: String, lockTimeout: Double = 30) throws {
        sessions = PostgresSessions(url: try PostgresURL(url), lockTimeout: lockTimeout)
        covers = PostgresCoverStore(sessions: sessions)
    }

    /// The URL without its password.
    public var location: String { sessions.url.description }

    public func exists() async throws -> Bool {
        try await sessions.with { connection in try await PostgresSchema.exists(connection, logger: sessions.log) }
    }

    public func create() async throws {
        try await sessions.with { connection in
            let logger = await sessions.log
            try await connection.run("BEGIN", logger: logger)
            // Two processes creating at once: the second waits, then finds the tables.
            try await connection.run("SELECT pg_advisory_xact_lock(\(Self.createLockKey))", logger: logger)
            try await PostgresSchema.create(connection, logger: logger, url: sessions.url)
            try await connection.run("COMMIT", logger: logger)
        }
    }

    public func load() async throws -> LibrarySnapshot {
        try await sessions.transaction(readOnly: true) { connection in
            try await PostgresRows.read(connection, logger: sessions.log, url: sessions.url, cache: cache).snapshot
        }
    }

    public func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] {
        try await sessions.transaction(readOnly: true) { connection in
            try await PostgresRows.steps(ids, connection, logger: sessions.log, url: sessions.url)
        }
    }

    public func beginWrite() async throws -> any StorageWriter {
        try await PostgresWriter.begin(with: sessions, cache: cache)
    }

    /// The advisory lock `create()` holds: "albumkit" in ASCII.
    private static let createLockKey = 0x616c_6275_6d6b_6974
}

extension StorageBackendFactory {
    /// `postgres`: the library in a PostgreSQL database named by `storage.postgres.url`
    /// (`postgres://user[:password]@host[:port]/database`; `storage.url` is read as it too),
    /// covers inside it.
    public static let postgres = StorageBackendFactory(
        name: "postgres", summary: "a PostgreSQL database (storage.postgres.url) holding albums, covers and history; shareable between hosts",
        settings: [SettingDeclaration("url", .text, "postgres://user[:password]@host[:port]/database")]
    ) { configuration in
        guard let url = configuration.backendSettings("postgres").string("url") else {
            throw AlbumKitError(.configuration, "storage.backend is postgres (from \(configuration.describeOrigin(of: "storage.backend"))) but storage.postgres.url is not set; expected postgres://user[:password]@host[:port]/database")
        }
        return try PostgresStorage(url: url, lockTimeout: configuration.storage.lockTimeoutSeconds)
    }
}
