import AlbumKit
import Foundation
import GRDB
import SourceSupport
import Yams

/// A beets `library.db`, opened read-only: SQLite's read-only mode, so nothing is ever
/// written, and every read its own short transaction, so beets is never kept from writing
/// for longer than one page of albums takes to fetch.
struct BeetsDatabase {
    /// The first bytes of every SQLite database file.
    static let magic = Array("SQLite format 3\u{0}".utf8)

    /// The database's path, as messages name it.
    let path: String
    /// Where relative `artpath`s start: the `directory` of the beets `config.yaml` beside the
    /// database, else beets's default `~/Music`.
    let musicDirectory: URL?
    /// The name of the albums' genre column (`genre` in older beets, `genres` in newer), if any.
    let genreColumn: String?
    /// Whether the database has beets's tables of flexible attributes (older ones may not).
    let hasFlexibleAttributes: Bool
    private let queue: DatabaseQueue

    /// Opens `url`; an error names it when it is not a beets library.
    init(_ url: URL) throws(AlbumKitError) {
        path = url.path
        do {
            queue = try Self.open(url)
            let (columns, flexible) = try queue.read { db in
                (try db.columns(in: "albums").map(\.name), try db.tableExists("album_attributes") && db.tableExists("item_attributes"))
            }
            guard columns.contains("album"), columns.contains("albumartist") else { throw BeetsProblem("") }
            genreColumn = ["genre", "genres"].first { columns.contains($0) }
            hasFlexibleAttributes = flexible
        } catch {
            throw AlbumKitError(.unreadableInput, "\(url.path): not a beets library (\(Self.reason(error)))")
        }
        musicDirectory = Self.musicDirectory(beside: url)
    }

    /// Whether `url` is an SQLite database with beets's tables.
    static func isBeetsLibrary(_ url: URL) -> Bool {
        guard let queue = try? open(url) else { return false }
        let tables = try? queue.read { db in
            (try db.tableExists("albums"), try db.tableExists("items"), try db.columns(in: "albums").map(\.name))
        }
        guard let tables, tables.0, tables.1 else { return false }
        return tables.2.contains("albumartist") && tables.2.contains("mb_albumid")
    }

    /// Up to `limit` albums with an id above `after`, in id order, each with its id, every
    /// attribute (fixed columns and flexible attributes) and its items.
    func albums(after: Int64, limit: Int) throws(AlbumKitError) -> [(id: Int64, album: BeetsAlbum)] {
        let rows: [Row]
        var items: [Int64: [[String: String]]] = [:]
        var albumFlexible: [Int64: [String: String]] = [:]
        do {
            (rows, items, albumFlexible) = try queue.read { db in
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM albums WHERE id > ? ORDER BY id LIMIT ?", arguments: [after, limit])
                guard let first = rows.first?["id"] as Int64?, let last = rows.last?["id"] as Int64? else { return (rows, [:], [:]) }
                var itemFlexible: [Int64: [String: String]] = [:]
                if hasFlexibleAttributes {
                    for row in try Row.fetchAll(
                        db, sql: "SELECT a.entity_id, a.key, a.value FROM item_attributes a JOIN items i ON i.id = a.entity_id WHERE i.album_id BETWEEN ? AND ?",
                        arguments: [first, last])
                    {
                        if let key = row["key"] as String?, let value = Self.text(row["value"]) { itemFlexible[row["entity_id"], default: [:]][key] = value }
                    }
                }
                var items: [Int64: [[String: String]]] = [:]
                for row in try Row.fetchAll(
                    db, sql: "SELECT * FROM items WHERE album_id BETWEEN ? AND ? ORDER BY album_id, disc, track, id", arguments: [first, last])
                {
                    var item = Self.attributes(of: row)
                    let id: Int64 = row["id"]
                    item.merge(itemFlexible[id] ?? [:]) { fixed, _ in fixed }
                    items[row["album_id"], default: []].append(item)
                }
                var albumFlexible: [Int64: [String: String]] = [:]
                if hasFlexibleAttributes {
                    for row in try Row.fetchAll(
                        db, sql: "SELECT entity_id, key, value FROM album_attributes WHERE entity_id BETWEEN ? AND ?", arguments: [first, last])
                    {
                        if let key = row["key"] as String?, let value = Self.text(row["value"]) { albumFlexible[row["entity_id"], default: [:]][key] = value }
                    }
                }
                return (rows, items, albumFlexible)
            }
        } catch {
            throw AlbumKitError(.unreadableInput, "\(path): cannot read the albums (\(Self.reason(error)))")
        }
        var albums: [(Int64, BeetsAlbum)] = []
        for row in rows {
            let id: Int64 = row["id"]
            do {
                var album = BeetsAlbum()
                album.album = try text(row, "album")
                album.albumArtist = try text(row, "albumartist")
                let genre = genreColumn.map { row[$0] as DatabaseValue }.flatMap(Self.text) ?? ""
                // Multi-valued fields are stored joined by a backslash and U+2400 (␀).
                let genres = genreColumn == "genres" ? genre.components(separatedBy: "\\\u{2400}").map(\.trimmed).filter { !$0.isEmpty } : [genre]
                album.genre = genres.first ?? ""
                album.moreGenres = Array(genres.dropFirst())
                album.year = try year(row)
                album.musicBrainzID = try text(row, "mb_albumid")
                album.artPath = try bytes(row, "artpath")
                var attributes = Self.attributes(of: row)
                attributes.merge(albumFlexible[id] ?? [:]) { fixed, _ in fixed }
                album.attributes = attributes
                album.items = items[id] ?? []
                albums.append((id, album))
            } catch {
                throw AlbumKitError(.unreadableInput, "\(path) album id \(id): \(error.message)")
            }
        }
        return albums
    }

    /// How many items are in no album (beets's singletons, imported with `-s`).
    func singletonCount() throws(AlbumKitError) -> Int {
        do {
            return try queue.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM items WHERE album_id IS NULL OR album_id NOT IN (SELECT id FROM albums)") ?? 0
            }
        } catch {
            throw AlbumKitError(.unreadableInput, "\(path): cannot read the items (\(Self.reason(error)))")
        }
    }

    /// Every column of `row` that holds a value, as text; beets's "unset" (null, empty, 0) and
    /// bytes that are not UTF-8 left out.
    private static func attributes(of row: Row) -> [String: String] {
        var attributes: [String: String] = [:]
        for (column, value) in row {
            if let text = text(value) { attributes[column] = text }
        }
        return attributes
    }

    /// A value as text: a number as SQLite writes it, a path's bytes as UTF-8; nil for beets's
    /// "unset" (null, empty, 0) and bytes that are not UTF-8.
    private static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: return nil
        case .int64(let number): return number == 0 ? nil : String(number)
        case .double(let number): return number == 0 || !number.isFinite ? nil : String(number)
        case .string(let text): return text.isEmpty ? nil : text
        case .blob(let data): return data.isEmpty ? nil : String(data: data, encoding: .utf8)
        }
    }

    private func text(_ row: Row, _ column: String) throws(BeetsProblem) -> String {
        switch (row[column] as DatabaseValue).storage {
        case .null: return ""
        case .string(let text): return text
        case .int64(let number): return String(number)
        case .double: throw BeetsProblem("'\(column)' is a number, not text")
        case .blob: throw BeetsProblem("'\(column)' is a blob, not text")
        }
    }

    private func year(_ row: Row) throws(BeetsProblem) -> String {
        switch (row["year"] as DatabaseValue).storage {
        case .null: return ""
        case .int64(let number) where (0...9999).contains(number): return String(number)
        default: throw BeetsProblem("'year' is not a year")
        }
    }

    private func bytes(_ row: Row, _ column: String) throws(BeetsProblem) -> Data {
        switch (row[column] as DatabaseValue).storage {
        case .null: return Data()
        case .blob(let data): return data
        case .string(let text): return Data(text.utf8)
        default: throw BeetsProblem("'\(column)' is not a path")
        }
    }

    private static func open(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        if let problem = error as? BeetsProblem, !problem.message.isEmpty { return problem.message }
        return "no albums table with album and albumartist columns"
    }

    /// beets keeps its configuration beside the database (both in `$BEETSDIR`); its
    /// `directory` is where relative paths start.
    private static func musicDirectory(beside database: URL) -> URL? {
        let config = database.deletingLastPathComponent().appendingPathComponent("config.yaml")
        guard let handle = FileHandle(forReadingAtPath: config.path) else { return home("~/Music") }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 1 << 20), let text = String(data: data, encoding: .utf8),
            let settings = (try? Yams.load(yaml: text)) as? [String: Any], let directory = settings["directory"] as? String
        else { return home("~/Music") }
        return home(directory)
    }

    private static func home(_ path: String) -> URL? {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : nil
    }
}
