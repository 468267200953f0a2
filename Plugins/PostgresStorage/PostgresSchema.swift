import AlbumKit
import Foundation
import Logging
import PostgresNIO

/// The tables of a library in a PostgreSQL database (all named `albumkit_…`) and how to
/// bring an older one up to date.
///
/// `albumkit_schema` holds one row: the number of ``migrations`` applied. An older schema
/// is upgraded in its own transaction under an exclusive lock on that table; a newer one is
/// refused, untouched.
enum PostgresSchema {
    /// Step `n` (0-based) takes the schema from version `n` to `n + 1`, one statement per
    /// string. Append, never edit.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE albumkit_albums (
                id text PRIMARY KEY,
                sort_key double precision NOT NULL,
                title text NOT NULL,
                artist text NOT NULL,
                genre text NOT NULL,
                year text NOT NULL,
                cover_url text
            )
            """,
            "CREATE INDEX albumkit_albums_order ON albumkit_albums (sort_key)",
            """
            CREATE TABLE albumkit_covers (
                sha256 text NOT NULL,
                file_extension text NOT NULL,
                bytes bytea NOT NULL,
                PRIMARY KEY (sha256, file_extension)
            )
            """,
            """
            CREATE TABLE albumkit_state (
                id integer PRIMARY KEY CHECK (id = 1),
                generation bigint NOT NULL,
                state text NOT NULL
            )
            """,
            #"INSERT INTO albumkit_state (id, generation, state) VALUES (1, 0, '{"version":1,"current":null,"undo":[],"redo":[]}')"#,
        ],
        ["CREATE TABLE albumkit_history (id bigint PRIMARY KEY, step text NOT NULL)"],
    ]

    /// The version this build writes.
    static var currentVersion: Int { migrations.count }

    /// Creates every table (inside the caller's transaction, which holds the create lock).
    static func create(_ connection: PostgresConnection, logger: Logger, url: PostgresURL) async throws {
        guard try await !exists(connection, logger: logger) else {
            throw AlbumKitError(.libraryState, "a library already exists in \(url); it was left as it is")
        }
        try await connection.run("CREATE TABLE albumkit_schema (version integer NOT NULL)", logger: logger)
        try await connection.run("INSERT INTO albumkit_schema (version) VALUES (0)", logger: logger)
        try await apply(after: 0, connection, logger: logger)
    }

    /// Whether the database holds a library.
    static func exists(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.query("SELECT to_regclass('albumkit_schema') IS NOT NULL", logger: logger)
        for try await present in rows.decode(Bool.self) { return present }
        return false
    }

    /// The schema version, after checking that this build can read it.
    static func version(_ connection: PostgresConnection, logger: Logger, url: PostgresURL) async throws -> Int {
        guard try await exists(connection, logger: logger) else {
            throw AlbumKitError(.libraryState, "no library in \(url): run 'albumkit init' first")
        }
        var version = 0
        for try await value in try await connection.query("SELECT version FROM albumkit_schema", logger: logger).decode(Int.self) {
            version = value
        }
        guard version <= currentVersion else {
            throw AlbumKitError(.unreadableInput, "\(url): written by a newer albumkit (schema version \(version); this one reads up to \(currentVersion)); the database was left as it is")
        }
        return version
    }

    /// Version 2: a version 1 memento's history steps move into `albumkit_history` rows.
    private static func moveHistoryIntoRows(_ connection: PostgresConnection, logger: Logger) async throws {
        var text: String?
        for try await state in try await connection.query("SELECT state FROM albumkit_state WHERE id = 1", logger: logger).decode(String.self) {
            text = state
        }
        guard let text else { return }
        let (state, steps) = try StoredMemento.decode(Data(text.utf8))
        for (id, step) in steps {
            let json = String(decoding: try JSONEncoder().encode(step), as: UTF8.self)
            try await connection.query("INSERT INTO albumkit_history (id, step) VALUES (\(id), \(json))", logger: logger)
        }
        let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        try await connection.query("UPDATE albumkit_state SET state = \(json) WHERE id = 1", logger: logger)
    }

    /// Brings an older schema up to date in one transaction, under an exclusive lock so two
    /// processes do not upgrade at once.
    static func upgrade(_ connection: PostgresConnection, logger: Logger, url: PostgresURL) async throws {
        try await connection.run("BEGIN", logger: logger)
        try await connection.run("LOCK TABLE albumkit_schema IN EXCLUSIVE MODE", logger: logger)
        try await apply(after: try await version(connection, logger: logger, url: url), connection, logger: logger)
        try await connection.run("COMMIT", logger: logger)
    }

    private static func apply(after version: Int, _ connection: PostgresConnection, logger: Logger) async throws {
        guard version < currentVersion else { return }
        for (number, step) in migrations.enumerated().dropFirst(version) {
            for statement in step { try await connection.run(statement, logger: logger) }
            if number == 1 { try await moveHistoryIntoRows(connection, logger: logger) }
        }
        try await connection.query("UPDATE albumkit_schema SET version = \(currentVersion)", logger: logger)
    }
}
