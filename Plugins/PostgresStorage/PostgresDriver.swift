import AlbumKit
import AlbumKitRowStore
import Logging
import PostgresNIO
import Synchronization

/// The PostgreSQL engine of a ``PostgresStorage``, through postgres-nio: readers see one
/// snapshot (`REPEATABLE READ`), a writer holds the row lock on `albumkit_state` (waiting up
/// to `lock_timeout`, set when the connection logs in), and every failure leaves here as an
/// ``AlbumKitError`` naming the server.
public struct PostgresDriver: RowStoreDriver {
    /// The server and database.
    let url: PostgresURL
    /// How long a second writer waits for the first, in seconds.
    public let lockTimeout: Double
    private let logger = Logger(label: "albumkit.postgres")

    /// The engine for the database at `url` (`postgres://user[:password]@host[:port]/database`);
    /// a malformed URL is an error.
    public init(url: String, lockTimeout: Double) throws {
        self.url = try PostgresURL(url)
        self.lockTimeout = lockTimeout
    }

    public var location: String { url.description }
    public var container: String { "database" }
    public var versionTable: String { "albumkit_schema" }
    public var legacySchema: [[String]] { PostgresLegacySchema.steps }
    /// Cover bytes are images, compressed already: stored out of line as they are, without
    /// PostgreSQL trying to compress each one first: that work buys nothing on an image, and it
    /// was a large part of an import's time on the server (BENCHMARKS.md).
    public var storageTuning: [String] { ["ALTER TABLE albumkit_covers ALTER COLUMN bytes SET STORAGE EXTERNAL"] }
    /// Trigram indexes (`pg_trgm`, shipped with PostgreSQL and trusted: a database owner may
    /// add it), which `LIKE '%word%'` uses, so a search over a million albums reads the rows
    /// that hold the word's trigrams, not every row. A server without the extension, or a user
    /// not allowed to add it, keeps the columns unindexed: the block catches the failure and
    /// rolls back only itself.
    public var searchIndexes: [String] {
        [
            """
            DO $$
            BEGIN
                CREATE EXTENSION IF NOT EXISTS pg_trgm;
                CREATE INDEX albumkit_albums_search_core ON albumkit_albums USING gin (search_core gin_trgm_ops);
                CREATE INDEX albumkit_albums_search_text ON albumkit_albums USING gin (search_text gin_trgm_ops);
            EXCEPTION WHEN OTHERS THEN
                RAISE NOTICE 'albumkit: searches read every row (no trigram index: %)', SQLERRM;
            END
            $$
            """
        ]
    }
    /// Filtering the table: the trigram index's bitmap already hands the scan only the rows
    /// that may match, and a second look-up by key would read each of them twice.
    public var searchesThroughKeys: Bool { false }
    /// The trigram indexes are version 8's.
    public var formerSearchIndexes: [String] { [] }
    /// A vacuum with its analysis: besides the statistics, it marks the pages every reader sees
    /// whole (the visibility map), so that reading every key (a listing's positions) is a scan
    /// of the sort key's index; until then it reads the whole table, details and all
    /// (BENCHMARKS.md, the measurements behind the code, which also gives what the vacuum adds
    /// to an import beside the analysis alone).
    public var statisticsRefresh: [String] { ["VACUUM (ANALYZE) albumkit_albums"] }
    /// A commit that does not wait for the WAL flush. The barrier rewrites the one schema row as
    /// it is: a transaction that writes no WAL of its own commits without waiting even when
    /// synchronous, so it must write something; its commit flushes the WAL up to it, the relaxed
    /// commits before it included.
    public var deferredDurability: DeferredDurability? {
        DeferredDurability(relaxing: "SET LOCAL synchronous_commit = off", barrier: "UPDATE albumkit_schema SET version = version")
    }

    public func exists() async throws -> Bool {
        let connection = try await login()
        defer { close(connection) }
        return try await tableExists(versionTable, on: connection)
    }

    public func connect() async throws -> PostgresRowConnection {
        let connection = try await login()
        do {
            guard try await tableExists(versionTable, on: connection) else {
                throw AlbumKitError(.libraryState, "no library in \(url): run 'albumkit init' first")
            }
        } catch {
            close(connection)
            throw error
        }
        return connection
    }

    /// A database's tables cannot be swapped beneath a connection.
    public func identity() -> String { "" }

    public func close(_ connection: PostgresRowConnection) {
        let connection = connection.connection
        // A connection must not be freed open: keep it alive until it is closed.
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    public func beginReading(_ connection: PostgresRowConnection) async throws {
        try await connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", [])
    }

    public func beginWriting(_ connection: PostgresRowConnection) async throws {
        try await connection.execute("BEGIN", [])
        guard try await connection.first("SELECT generation FROM albumkit_state WHERE id = 1 FOR UPDATE", [], { try $0.integer(0) }) != nil
        else {
            throw AlbumKitError(.unreadableInput, "\(url): table albumkit_state has no row; the database was left as it is")
        }
    }

    /// The channel saves are announced on (see ``PostgresStorage/changes()``).
    static let changeChannel = "albumkit_changes"
    /// The channel notices go on (see ``PostgresStorage/notices()``).
    static let noticeChannel = "albumkit_notices"

    /// Announces the save to listeners; PostgreSQL delivers it only when the save commits.
    public func saving(_ connection: PostgresRowConnection, generation: Int64) async throws {
        try await connection.execute("NOTIFY \(Self.changeChannel), '\(generation)'", [])
    }

    public func create(_ makeSchema: @escaping @Sendable (PostgresRowConnection) async throws -> Void) async throws {
        let connection = try await login()
        defer { close(connection) }
        try await connection.execute("BEGIN", [])
        // Two processes creating at once: the second waits, then finds the tables.
        try await connection.execute("SELECT pg_advisory_xact_lock(\(Self.createLockKey))", [])
        try await makeSchema(connection)
        try await connection.execute("COMMIT", [])
    }

    public func tableExists(_ table: String, on connection: PostgresRowConnection) async throws -> Bool {
        try await connection.first("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ?", [.text(table)]) {
            try $0.integer(0)
        } ?? 0 > 0
    }

    /// A new connection, logged in, its lock timeout set.
    private func login() async throws -> PostgresRowConnection {
        var configuration = url.configuration
        // How long a writer waits for another's row lock (then fails with 55P03).
        configuration.options.additionalStartupParameters = [("lock_timeout", "\(Int(lockTimeout * 1000))ms")]
        let connection = try await PostgresConnection.connect(configuration: configuration, id: Self.nextID(), logger: logger)
        return PostgresRowConnection(connection: connection, logger: logger)
    }

    /// The advisory lock `create` holds: "albumkit" in ASCII.
    private static let createLockKey = 0x616c_6275_6d6b_6974

    private static let counter = Counter()
    private static func nextID() -> Int { counter.next() }

    public func describe(_ error: any Error) -> AlbumKitError {
        if let error = error as? AlbumKitError { return error }
        guard let error = error as? PSQLError else {
            return AlbumKitError(.connection, "PostgreSQL at \(url.hostAndPort): \(error)")
        }
        let server = url.hostAndPort
        if let info = error.serverInfo {
            let message = info[.message] ?? "unknown error"
            switch info[.sqlState] ?? "" {
            case "28P01", "28000":
                return AlbumKitError(.connection, "PostgreSQL at \(server) refused user '\(url.user)': \(message)")
            case "3D000":
                return AlbumKitError(.connection, "PostgreSQL at \(server): \(message) (from \(url))")
            case "42P01":
                return AlbumKitError(.libraryState, "no library in \(url): run 'albumkit init' first")
            case "55P03":
                return AlbumKitError(.lockTimeout, "\(url): another writer held the library for more than \(lockTimeout) seconds; nothing was changed")
            case let state where state.hasPrefix("08") || state.hasPrefix("57"):
                return AlbumKitError(.connection, "PostgreSQL at \(server) dropped the connection: \(message); nothing was changed")
            default:
                return AlbumKitError(.unreadableInput, "\(url): PostgreSQL failed: \(message); nothing was changed")
            }
        }
        let cause = error.underlying.map { String(describing: $0) } ?? "\(error.code)"
        let reason =
            if cause.localizedCaseInsensitiveContains("refused") {
                "connection refused (is the server running?)"
            } else if cause.localizedCaseInsensitiveContains("timeout") || cause.localizedCaseInsensitiveContains("timed out") {
                "no answer (timed out)"
            } else if error.code == .serverClosedConnection || error.code == .clientClosedConnection {
                "the connection closed before the login finished (is the server reachable?)"
            } else {
                cause
            }
        return AlbumKitError(.connection, "cannot reach PostgreSQL at \(server): \(reason); nothing was changed")
    }
}

/// Numbers the connections of a process, as postgres-nio asks.
private final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
