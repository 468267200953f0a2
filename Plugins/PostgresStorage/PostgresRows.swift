import AlbumKit
import Foundation
import Logging
import PostgresNIO

/// Reads the library out of its rows and writes row operations and the memento back.
enum PostgresRows {
    /// Rows per multi-row `INSERT` (7 parameters each, well under PostgreSQL's 65 535).
    private static let insertBatch = 1000

    /// The library at the database's current generation — remembered in `cache`, or read
    /// from every row when the generation moved. A writer is `taking`: it gets the cached
    /// entry for itself (see ``GenerationCache/take(at:)``) and remembers what it saves. Runs inside the caller's transaction.
    static func read(
        _ connection: PostgresConnection, logger: Logger, url: PostgresURL, cache: GenerationCache, taking: Bool = false
    ) async throws
        -> GenerationCache.Entry
    {
        var found: (Int64, String)?
        let stateRows = try await connection.query("SELECT generation, state FROM albumkit_state WHERE id = 1", logger: logger)
        for try await row in stateRows.decode((Int64, String).self) { found = row }
        guard let (generation, stateText) = found else {
            throw AlbumKitError(.unreadableInput, "\(url): table albumkit_state has no row; the database was left as it is")
        }
        if let entry = taking ? cache.take(at: generation) : cache.entry(at: generation) { return entry }
        let state: LibraryState
        do {
            state = try JSONDecoder().decode(LibraryState.self, from: Data(stateText.utf8))
        } catch {
            throw AlbumKitError(.unreadableInput, "\(url): table albumkit_state holds an unreadable memento (\(error)); the database was left as it is")
        }
        var albums: [Album] = []
        var keys: [Double] = []
        let rows = try await connection.query(
            "SELECT id, sort_key, title, artist, genre, year, cover_url FROM albumkit_albums ORDER BY sort_key", logger: logger)
        for try await (id, key, title, artist, genre, year, cover) in rows.decode((String, Double, String, String, String, String, String?).self) {
            do {
                albums.append(try Album(id: AlbumID(id), title: title, artist: artist, genre: genre, year: year, coverUrl: cover))
            } catch {
                throw AlbumKitError(.unreadableInput, "\(url): table albumkit_albums, row '\(id)': \(error); the database was left as it is")
            }
            keys.append(key)
        }
        let entry = GenerationCache.Entry(
            generation: generation, snapshot: LibrarySnapshot(albums: albums, state: state),
            order: RowOrder(ids: albums.map(\.id), keys: keys))
        if !taking { cache.remember(entry) }
        return entry
    }

    /// The stored steps `ids` names (inside the caller's transaction).
    static func steps(_ ids: [Int64], _ connection: PostgresConnection, logger: Logger, url: PostgresURL) async throws -> [Int64: HistoryStep] {
        var steps: [Int64: HistoryStep] = [:]
        guard !ids.isEmpty else { return steps }
        let rows = try await connection.query("SELECT id, step FROM albumkit_history WHERE id = ANY(\(ids))", logger: logger)
        for try await (id, text) in rows.decode((Int64, String).self) {
            do {
                steps[id] = try JSONDecoder().decode(HistoryStep.self, from: Data(text.utf8))
            } catch {
                throw AlbumKitError(.unreadableInput, "\(url): table albumkit_history, row \(id): unreadable (\(error)); the database was left as it is")
            }
        }
        return steps
    }

    /// Runs `operations` (consecutive inserts batched), stores and drops the steps `change`
    /// names, and stores `state` under `generation`, inside the caller's transaction.
    static func write(
        _ operations: [RowOperation], change: StoredChange, state: LibraryState, generation: Int64, _ connection: PostgresConnection,
        logger: Logger
    ) async throws {
        if change.albums == .replaced {
            try await connection.run("DELETE FROM albumkit_history", logger: logger)
        } else if !change.droppedSteps.isEmpty {
            try await connection.query("DELETE FROM albumkit_history WHERE id = ANY(\(change.droppedSteps))", logger: logger)
        }
        for (id, step) in change.addedSteps {
            let json = String(decoding: try JSONEncoder().encode(step), as: UTF8.self)
            try await connection.query(
                "INSERT INTO albumkit_history (id, step) VALUES (\(id), \(json)) ON CONFLICT (id) DO UPDATE SET step = EXCLUDED.step",
                logger: logger)
        }
        var pending: [(Album, Double)] = []
        for operation in operations {
            if case .insert(let album, let key) = operation {
                pending.append((album, key))
                if pending.count == insertBatch { try await insert(pending, connection, logger: logger); pending = [] }
                continue
            }
            try await insert(pending, connection, logger: logger)
            pending = []
            switch operation {
            case .deleteAll:
                try await connection.run("DELETE FROM albumkit_albums", logger: logger)
            case .delete(let id):
                try await connection.query("DELETE FROM albumkit_albums WHERE id = \(id.rawValue)", logger: logger)
            case .update(let album):
                try await connection.query(
                    "UPDATE albumkit_albums SET title = \(album.title), artist = \(album.artist), genre = \(album.genre), year = \(album.year), cover_url = \(album.coverUrl) WHERE id = \(album.id.rawValue)",
                    logger: logger)
            case .reorder(let id, let key):
                try await connection.query("UPDATE albumkit_albums SET sort_key = \(key) WHERE id = \(id.rawValue)", logger: logger)
            case .insert:
                break
            }
        }
        try await insert(pending, connection, logger: logger)
        let stateText = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        try await connection.query(
            "UPDATE albumkit_state SET generation = \(generation), state = \(stateText) WHERE id = 1", logger: logger)
    }

    private static func insert(_ rows: [(Album, Double)], _ connection: PostgresConnection, logger: Logger) async throws {
        guard !rows.isEmpty else { return }
        var bindings = PostgresBindings(capacity: rows.count * 7)
        var values: [String] = []
        for (index, (album, key)) in rows.enumerated() {
            let first = index * 7
            values.append("(" + (1...7).map { "$\(first + $0)" }.joined(separator: ", ") + ")")
            bindings.append(album.id.rawValue)
            bindings.append(key)
            bindings.append(album.title)
            bindings.append(album.artist)
            bindings.append(album.genre)
            bindings.append(album.year)
            bindings.append(album.coverUrl)
        }
        let sql = "INSERT INTO albumkit_albums (id, sort_key, title, artist, genre, year, cover_url) VALUES " + values.joined(separator: ", ")
        try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
    }
}
