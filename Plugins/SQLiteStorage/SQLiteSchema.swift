import AlbumKit
import Foundation
import GRDB

/// The tables of a library file and how to bring an older file up to date.
///
/// `schemaVersion` holds one row: the number of ``migrations`` applied. A file from an older
/// albumkit is upgraded inside the writer's transaction; one from a newer albumkit is
/// refused, untouched.
enum SQLiteSchema {
    /// Step `n` (0-based) takes a file from version `n` to `n + 1`. Append, never edit.
    static let migrations: [@Sendable (Database) throws -> Void] = [
        { db in try db.execute(sql: version1) },
        { db in try moveHistoryIntoRows(db) },
    ]

    /// Version 1: albums, covers, and the memento with the whole history inside.
    private static let version1 =
        """
        CREATE TABLE album (
            id TEXT PRIMARY KEY NOT NULL,
            sortKey REAL NOT NULL,
            title TEXT NOT NULL,
            artist TEXT NOT NULL,
            genre TEXT NOT NULL,
            year TEXT NOT NULL,
            coverUrl TEXT
        );
        CREATE INDEX album_order ON album(sortKey);
        CREATE TABLE cover (
            sha256 TEXT NOT NULL,
            fileExtension TEXT NOT NULL,
            bytes BLOB NOT NULL,
            PRIMARY KEY (sha256, fileExtension)
        );
        CREATE TABLE libraryState (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            generation INTEGER NOT NULL,
            state BLOB NOT NULL
        );
        INSERT INTO libraryState (id, generation, state) VALUES (1, 0, '{"version":1,"current":null,"undo":[],"redo":[]}');
        """

    /// Version 2: one row per history step; the memento names them (a version 1 memento's
    /// steps move into rows).
    private static func moveHistoryIntoRows(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE historyStep (id INTEGER PRIMARY KEY, step BLOB NOT NULL)")
        guard let data = try Data.fetchOne(db, sql: "SELECT state FROM libraryState WHERE id = 1") else { return }
        let (state, steps) = try StoredMemento.decode(data)
        for (id, step) in steps {
            try db.execute(sql: "INSERT INTO historyStep (id, step) VALUES (?, ?)", arguments: [id, try JSONEncoder().encode(step)])
        }
        try db.execute(sql: "UPDATE libraryState SET state = ? WHERE id = 1", arguments: [try JSONEncoder().encode(state)])
    }

    /// The version this build writes.
    static var currentVersion: Int { migrations.count }

    /// Creates every table in an empty file (inside the caller's transaction).
    static func create(_ db: Database, path: String) throws {
        guard try !db.tableExists("schemaVersion") else {
            throw AlbumKitError(.libraryState, "a library already exists at \(path); it was left as it is")
        }
        try db.execute(sql: "CREATE TABLE schemaVersion (version INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO schemaVersion (version) VALUES (0)")
        try upgrade(db, from: 0)
    }

    /// The file's version, after checking that this build can read it.
    static func check(_ db: Database, path: String) throws -> Int {
        guard try db.tableExists("schemaVersion"), let version = try Int.fetchOne(db, sql: "SELECT version FROM schemaVersion") else {
            throw AlbumKitError(.unreadableInput, "\(path): not an albumkit library (no schemaVersion table); the file was left as it is")
        }
        guard version <= currentVersion else {
            throw AlbumKitError(.unreadableInput, "\(path): written by a newer albumkit (schema version \(version); this one reads up to \(currentVersion)); the file was left as it is")
        }
        return version
    }

    /// Applies the steps after `version` (inside the caller's write transaction).
    static func upgrade(_ db: Database, from version: Int) throws {
        guard version < currentVersion else { return }
        for step in migrations[version...] { try step(db) }
        try db.execute(sql: "UPDATE schemaVersion SET version = ?", arguments: [currentVersion])
    }
}
