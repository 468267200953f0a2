import AlbumKit
import Foundation
import GRDB
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
    private let queue: DatabaseQueue

    /// Opens `url`; an error names it when it is not a beets library.
    init(_ url: URL) throws(AlbumKitError) {
        path = url.path
        do {
            queue = try Self.open(url)
            let columns = try queue.read { db in try db.columns(in: "albums").map(\.name) }
            guard columns.contains("album"), columns.contains("albumartist") else { throw BeetsProblem("") }
            genreColumn = ["genre", "genres"].first { columns.contains($0) }
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

    /// Up to `limit` albums with an id above `after`, in id order, each with its id.
    func albums(after: Int64, limit: Int) throws(AlbumKitError) -> [(id: Int64, album: BeetsAlbum)] {
        let genre = genreColumn.map { "\"\($0)\"" } ?? "''"
        let sql = """
            SELECT id, album, albumartist, \(genre) AS genre, year, mb_albumid, artpath
            FROM albums WHERE id > ? ORDER BY id LIMIT ?
            """
        let rows: [Row]
        do {
            rows = try queue.read { db in try Row.fetchAll(db, sql: sql, arguments: [after, limit]) }
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
                let genre = try text(row, "genre")
                // Multi-valued fields are stored joined by a backslash and U+2400 (␀).
                album.genre = genreColumn == "genres" ? BeetsAlbum.firstGenre(genre: nil, genres: genre, separator: "\\\u{2400}") : genre
                album.year = try year(row)
                album.musicBrainzID = try text(row, "mb_albumid")
                album.artPath = try bytes(row, "artpath")
                albums.append((id, album))
            } catch {
                throw AlbumKitError(.unreadableInput, "\(path) album id \(id): \(error.message)")
            }
        }
        return albums
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
