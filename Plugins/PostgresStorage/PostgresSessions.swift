import AlbumKit
import Logging
import PostgresNIO

/// The connections of one ``PostgresStorage``: leased one at a time to a reader, a writer or
/// the cover store, and kept (a few) for the next lease, so a change costs no new login.
/// Every failure leaves here as an ``AlbumKitError`` naming the server.
actor PostgresSessions {
    let url: PostgresURL
    let lockTimeout: Double
    private let logger = Logger(label: "albumkit.postgres")
    private var idle: [PostgresConnection] = []
    private var nextID = 0
    private var schemaChecked = false
    private static let keptIdle = 4

    init(url: PostgresURL, lockTimeout: Double) {
        self.url = url
        self.lockTimeout = lockTimeout
    }

    deinit {
        for connection in idle { connection.retire() }
    }

    /// A connection of its own, made when none is idle.
    func lease() async throws -> PostgresConnection {
        while let connection = idle.popLast() {
            if !connection.isClosed { return connection }
        }
        nextID += 1
        do {
            let connection = try await PostgresConnection.connect(configuration: url.configuration, id: nextID, logger: logger)
            do {
                // How long a writer waits for another's row lock (then fails with 55P03).
                try await connection.run("SET lock_timeout = '\(Int(lockTimeout * 1000))ms'", logger: logger)
            } catch {
                connection.retire()
                throw error
            }
            return connection
        } catch {
            throw describe(error)
        }
    }

    /// Gives `connection` back; one with an unfinished transaction or a failure is closed.
    func release(_ connection: PostgresConnection, reusable: Bool) {
        if reusable, !connection.isClosed, idle.count < Self.keptIdle {
            idle.append(connection)
        } else {
            connection.retire()
        }
    }

    /// Runs `body` on a leased connection, mapping its failures.
    @discardableResult
    func with<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await lease()
        do {
            let result = try await body(connection)
            release(connection, reusable: true)
            return result
        } catch {
            release(connection, reusable: false)
            throw describe(error)
        }
    }

    /// Runs `body` in a transaction — for a reader, `REPEATABLE READ READ ONLY` (one view of
    /// the library) — committed when it returns, rolled back (by closing) when it throws.
    func transaction<T: Sendable>(readOnly: Bool, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await with { connection in
            try await ensureSchema(connection)
            try await connection.run(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", logger: logger)
            let result = try await body(connection)
            try await connection.run("COMMIT", logger: logger)
            return result
        }
    }

    /// Checks once per process that the database holds an albumkit library this build can
    /// read, upgrading an older schema first (in its own transaction, under a lock).
    func ensureSchema(_ connection: PostgresConnection) async throws {
        guard !schemaChecked else { return }
        guard try await PostgresSchema.version(connection, logger: logger, url: url) < PostgresSchema.currentVersion else {
            schemaChecked = true
            return
        }
        let upgrader = try await lease()
        do {
            try await PostgresSchema.upgrade(upgrader, logger: logger, url: url)
            release(upgrader, reusable: true)
        } catch {
            release(upgrader, reusable: false)
            throw error
        }
        schemaChecked = true
    }

    /// The logger postgres-nio reports to.
    var log: Logger { logger }

    /// The ``AlbumKitError`` for a failure talking to this server.
    nonisolated func describe(_ error: any Error) -> AlbumKitError {
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

extension PostgresConnection {
    /// Closes the connection in the background, keeping it alive until it is closed (a
    /// connection must not be freed open).
    func retire() {
        close().whenComplete { _ in withExtendedLifetime(self) {} }
    }

    /// Runs one statement that returns no rows.
    func run(_ sql: String, logger: Logger) async throws {
        try await query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }
}
