import AlbumKit
import Foundation
import GRDB

/// Reads the library out of its rows and writes row operations and the memento back.
enum SQLiteRows {
    /// The library at the database's current generation — remembered in `cache`, or read
    /// from every row when the generation moved. A writer is `taking`: it gets the cached
    /// entry for itself (see ``GenerationCache/take(at:)``) and remembers what it saves. Runs inside the caller's transaction.
    static func read(_ db: Database, database: SQLiteDatabase, cache: GenerationCache, taking: Bool = false) throws
        -> GenerationCache.Entry
    {
        guard let row = try Row.fetchOne(db, sql: "SELECT generation, state FROM libraryState WHERE id = 1") else {
            throw AlbumKitError(.unreadableInput, "\(database.path): table libraryState has no row; the file was left as it is")
        }
        let generation: Int64 = row["generation"]
        if let entry = taking ? cache.take(at: generation) : cache.entry(at: generation) { return entry }
        let state: LibraryState
        do {
            state = try JSONDecoder().decode(LibraryState.self, from: row["state"] as Data)
        } catch {
            throw AlbumKitError(.unreadableInput, "\(database.path): table libraryState holds an unreadable memento (\(error)); the file was left as it is")
        }
        var albums: [Album] = []
        var keys: [Double] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT id, sortKey, title, artist, genre, year, coverUrl FROM album ORDER BY sortKey")
        while let row = try rows.next() {
            let id: String = row[0]
            do {
                albums.append(try Album(id: AlbumID(id), title: row[2], artist: row[3], genre: row[4], year: row[5], coverUrl: row[6]))
            } catch {
                throw AlbumKitError(.unreadableInput, "\(database.path): table album, row '\(id)': \(error); the file was left as it is")
            }
            keys.append(row[1])
        }
        let entry = GenerationCache.Entry(
            generation: generation, snapshot: LibrarySnapshot(albums: albums, state: state),
            order: RowOrder(ids: albums.map(\.id), keys: keys))
        if !taking { cache.remember(entry) }
        return entry
    }

    /// The stored steps `ids` names (inside the caller's transaction, or none).
    static func steps(_ ids: [Int64], _ db: Database, path: String) throws -> [Int64: HistoryStep] {
        var steps: [Int64: HistoryStep] = [:]
        for id in ids {
            guard let data = try Data.fetchOne(db, sql: "SELECT step FROM historyStep WHERE id = ?", arguments: [id]) else { continue }
            do {
                steps[id] = try JSONDecoder().decode(HistoryStep.self, from: data)
            } catch {
                throw AlbumKitError(.unreadableInput, "\(path): table historyStep, row \(id): unreadable (\(error)); the file was left as it is")
            }
        }
        return steps
    }

    /// Runs `operations`, stores and drops the steps `change` names, and stores `state` under
    /// `generation` (inside the caller's transaction).
    static func write(_ operations: [RowOperation], change: StoredChange, state: LibraryState, generation: Int64, _ db: Database) throws {
        if change.albums == .replaced {
            try db.execute(sql: "DELETE FROM historyStep")
        } else {
            for id in change.droppedSteps { try db.execute(sql: "DELETE FROM historyStep WHERE id = ?", arguments: [id]) }
        }
        for (id, step) in change.addedSteps {
            try db.execute(sql: "INSERT OR REPLACE INTO historyStep (id, step) VALUES (?, ?)", arguments: [id, try JSONEncoder().encode(step)])
        }
        for operation in operations {
            switch operation {
            case .deleteAll:
                try db.execute(sql: "DELETE FROM album")
            case .insert(let album, let key):
                try db.cachedStatement(sql: "INSERT INTO album (id, sortKey, title, artist, genre, year, coverUrl) VALUES (?, ?, ?, ?, ?, ?, ?)")
                    .execute(arguments: [album.id.rawValue, key, album.title, album.artist, album.genre, album.year, album.coverUrl])
            case .delete(let id):
                try db.cachedStatement(sql: "DELETE FROM album WHERE id = ?").execute(arguments: [id.rawValue])
            case .update(let album):
                try db.cachedStatement(sql: "UPDATE album SET title = ?, artist = ?, genre = ?, year = ?, coverUrl = ? WHERE id = ?")
                    .execute(arguments: [album.title, album.artist, album.genre, album.year, album.coverUrl, album.id.rawValue])
            case .reorder(let id, let key):
                try db.cachedStatement(sql: "UPDATE album SET sortKey = ? WHERE id = ?").execute(arguments: [key, id.rawValue])
            }
        }
        try db.execute(
            sql: "UPDATE libraryState SET generation = ?, state = ? WHERE id = 1",
            arguments: [generation, try JSONEncoder().encode(state)])
    }
}
