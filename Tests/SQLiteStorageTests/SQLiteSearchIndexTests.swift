import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

@testable import AlbumKitRowStore
@testable import SQLiteStorage

/// SQLite's search index covers what a listing of the core six reads (schema version 10): a
/// search that reads no details (`label:warp` in a table) is answered by the index alone, never
/// the table's rows; a library whose index is version 8's has it made again on first use.
@Suite struct SQLiteSearchIndexTests {
    /// Forty albums, every fourth on the label Warp.
    private static func albums() throws -> [Album] {
        try (0..<40).map { index in
            var details = AlbumDetails()
            details[.label] = index % 4 == 0 ? "Warp" : "Other \(index)"
            details.tracks = [Track(title: "Track of \(index)")]
            return try Album(id: AlbumID("id-\(index)"), title: "Album \(index)", artist: "Artist \(index % 3)", year: "1999", details: details)
        }
    }

    /// A new library in `file` holding ``albums()``.
    private static func storage(_ file: URL) async throws -> SQLiteStorage {
        let storage = SQLiteStorage(file: file)
        try await storage.create(holding: try albums())
        return storage
    }

    /// The text of `column` in each row SQLite answers `sql` with, read on one of `storage`'s connections.
    private static func texts(_ storage: SQLiteStorage, _ sql: String, _ arguments: [SQLValue] = [], column: Int = 0) async throws -> [String] {
        try await storage.store.withReader(transaction: true) { reader in
            try await reader.connection.query(sql, arguments) { try $0.text(column) }
        }
    }

    private static let listed = ["id-0", "id-4", "id-8", "id-12", "id-16", "id-20", "id-24", "id-28", "id-32", "id-36"]

    @Test func aSearchThatReadsNoDetailsReadsTheIndexAlone() async throws {
        let folder = try TemporaryFolder("sqlite-search-index")
        defer { folder.remove() }
        let storage = try await Self.storage(folder.path("library.sqlite"))
        let query = try AlbumQuery(parsing: "label:warp")
        let words = query.searchWords
        let sql = RowStoreSQL.albumsHolding(words, details: false, folded: true, throughKeys: storage.store.driver.searchesThroughKeys)
        let plan = try await Self.texts(storage, "EXPLAIN QUERY PLAN " + sql, words.map(RowStoreSQL.pattern), column: 3)
        #expect(plan == ["SCAN albumkit_albums USING COVERING INDEX albumkit_albums_search"])
        let library = try await Library.open(storage, hub: NotificationHub())
        var listed: [ListedAlbum] = []
        for try await page in library.listedPages(matching: query, details: []) { listed += page }
        #expect(listed.map(\.album.id.rawValue) == Self.listed)
        #expect(listed.map(\.position) == Self.listed.map { Int($0.dropFirst(3))! + 1 })
    }

    @Test func aVersion9LibraryHasItsSearchIndexMadeAgain() async throws {
        let folder = try TemporaryFolder("sqlite-search-index-9")
        defer { folder.remove() }
        let file = folder.path("library.sqlite")
        _ = try await Self.storage(file)
        // The index and version a library of versions 8 and 9 has.
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("DROP INDEX albumkit_albums_search")
            c.execute("CREATE INDEX albumkit_albums_search ON albumkit_albums (sort_key, search_core, search_text)")
            c.execute("UPDATE schemaVersion SET version = 9")
            c.commit()
            """
        let result = try runProgram("/usr/bin/env", ["python3", "-c", script, file.path])
        #expect(result.status == 0, "\(result.output)")
        let storage = SQLiteStorage(file: file)
        let library = try await Library.open(storage, hub: NotificationHub())
        #expect(try await library.listed(matching: AlbumQuery(parsing: "label:warp")).map(\.album.id.rawValue) == Self.listed)
        #expect(try await Self.texts(storage, "SELECT CAST(version AS text) FROM schemaVersion") == ["10"])
        let columns = try await Self.texts(storage, "SELECT name FROM pragma_index_info('albumkit_albums_search') ORDER BY seqno")
        #expect(columns == ["sort_key", "search_core", "search_text", "id", "title", "artist", "genre", "year", "cover_url"])
    }
}
