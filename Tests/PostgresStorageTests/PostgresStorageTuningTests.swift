import AlbumKit
import AlbumKitTesting
import Foundation
import PostgresStorage
import Testing

/// A new library stores cover bytes out of line as they are: PostgreSQL does not try to
/// compress images, which are compressed already.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresStorageTuningTests {
    @Test func aNewLibraryStoresCoverBytesWithoutCompressingThem() async throws {
        let url = try await TestServer.freshDatabase()
        let storage = try PostgresStorage(url: url)
        try await storage.create()
        #expect(try psql(url, "SELECT attstorage FROM pg_attribute WHERE attrelid = 'albumkit_covers'::regclass AND attname = 'bytes'") == "e")

        // Bytes that would compress well: stored whole all the same, and read back unchanged.
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 40_000))
        let key = CoverKey(bytes: bytes, fileExtension: "png")
        #expect(try await storage.covers.insert([(key, bytes)]) == [key])
        #expect(try await storage.covers.data(for: key) == bytes)
        let stored = try psql(url, "SELECT pg_column_size(bytes) FROM albumkit_covers WHERE sha256 = '\(key.sha256)'")
        #expect((Int(stored) ?? 0) >= bytes.count, "stored in \(stored) bytes: compressed")
    }

    /// A batch of covers commits without waiting for the WAL flush (the save that names them
    /// waits for it); a single `put` and the albums' save still wait. A trigger records the
    /// `synchronous_commit` each statement ran under.
    @Test func aCoverBatchCommitsWithoutWaitingForTheDiskAndASaveWaits() async throws {
        let url = try await TestServer.freshDatabase()
        let storage = try PostgresStorage(url: url)
        try await storage.create()
        let library = try await Library.open(storage, hub: NotificationHub())
        _ = try psql(url, """
            CREATE TABLE seen (tbl text, setting text);
            CREATE FUNCTION note() RETURNS trigger LANGUAGE plpgsql AS $$
              BEGIN INSERT INTO seen VALUES (TG_TABLE_NAME, current_setting('synchronous_commit')); RETURN NULL; END $$;
            CREATE TRIGGER note AFTER INSERT ON albumkit_covers FOR EACH STATEMENT EXECUTE FUNCTION note();
            CREATE TRIGGER note AFTER INSERT ON albumkit_albums FOR EACH STATEMENT EXECUTE FUNCTION note();
            """)
        let covers = (1...3).map { index in
            let bytes = Data([0x89, 0x50, 0x4E, 0x47, UInt8(index)])
            return (key: CoverKey(bytes: bytes, fileExtension: "png"), bytes: bytes)
        }
        #expect(try await storage.covers.insert(Array(covers[0...1])) == covers[0...1].map(\.key))
        #expect(try psql(url, "SELECT tbl || ' ' || setting FROM seen") == "albumkit_covers off")
        #expect(try await storage.covers.data(for: covers[1].key) == covers[1].bytes)

        _ = try psql(url, "DELETE FROM seen")
        _ = try await storage.covers.put(covers[2].bytes, fileExtension: "png")
        try await library.add(AlbumRecord(title: "Low", artist: "David Bowie", genre: "Rock", year: "1977"))
        let settings = try psql(url, "SELECT tbl || ' ' || setting FROM seen ORDER BY tbl").split(separator: "\n")
        #expect(settings == ["albumkit_albums on", "albumkit_covers on"])
    }

    /// `makeDurable()` waits until the WAL is on disk up to where it stood after the batches.
    /// (Without it the flush usually lags an asynchronous commit by up to `wal_writer_delay`,
    /// but another session's commit may flush it first: this check can only fail often, not always.)
    @Test func makeDurableFlushesTheWALPastTheBatches() async throws {
        let url = try await TestServer.freshDatabase()
        let storage = try PostgresStorage(url: url)
        try await storage.create()
        let bytes = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        _ = try await storage.covers.insert([(CoverKey(bytes: bytes, fileExtension: "png"), bytes)])
        let written = try psql(url, "SELECT pg_current_wal_insert_lsn()")
        try await storage.covers.makeDurable()
        #expect(try psql(url, "SELECT pg_current_wal_flush_lsn() >= '\(written)'::pg_lsn") == "t")
    }

    /// `add` asks for the first album with a duplicate key, in library order, by the key's
    /// digest. Right after a large import the planner has no statistics yet; it must still
    /// answer from one index probe, not walk the order index filtering every row (the key
    /// itself is compared only on the rows the probe finds).
    @Test func theFirstDuplicateIsOneIndexProbeWithoutStatistics() async throws {
        let url = try await TestServer.freshDatabase()
        try await PostgresStorage(url: url).create()
        _ = try psql(url, """
            INSERT INTO albumkit_albums (id, sort_key, title, artist, genre, year, duplicate_key, duplicate_digest)
              SELECT 'id' || n, n, 't', 'a', 'g', '2000', 'key' || n, md5('key' || n) FROM generate_series(1, 20000) AS n
            """)
        let plan = try psql(url, """
            EXPLAIN SELECT id FROM albumkit_albums WHERE duplicate_digest = 'none' AND duplicate_key = 'none' ORDER BY sort_key LIMIT 1
            """)
        #expect(plan.contains("albumkit_albums_duplicate_digest") && plan.contains("Index Cond: (duplicate_digest = 'none'::text)"), "\(plan)")
    }

    /// An import that adds at least a tenth of the library's albums refreshes the planner's
    /// statistics at once (PostgreSQL's own analysis comes a minute or more later, and until
    /// then it planned a page of 100 keys as 210 000 rows); adding one album does not.
    @Test func anImportOfManyAlbumsRefreshesThePlannersStatistics() async throws {
        let url = try await TestServer.freshDatabase()
        let cli = try CLIRunner()
        defer { cli.remove() }
        let environment = ["ALBUMKIT_STORAGE_BACKEND": "postgres", "ALBUMKIT_STORAGE_URL": url]
        try #require(try cli.run(["init"], environment: environment).status == 0)
        let list = cli.folder.appendingPathComponent("list.json")
        let albums = (1...50).map { ["title": "Album \($0)", "artist": "Artist \($0 % 7)", "year": "19\(50 + $0 % 40)"] }
        try JSONSerialization.data(withJSONObject: albums).write(to: list)
        let imported = try cli.run(["import", list.path], environment: environment)
        #expect(imported.status == 0, "\(imported.error)")
        let rows = "SELECT reltuples::bigint FROM pg_class WHERE relname = 'albumkit_albums'"
        #expect(try psql(url, rows) == "50", "the import must leave the planner knowing its 50 rows")
        #expect(try cli.run(["add", "--title", "One more", "--artist", "A"], environment: environment).status == 0)
        #expect(try psql(url, rows) == "50", "adding one album must not analyze the table again")
    }

    /// A save that fills the library (an import into a new one, restore, migrate) leaves its
    /// table vacuumed: every page marked as seen whole by every reader (the visibility map), so
    /// that reading every key reads the sort key's index, not the whole table, before
    /// autovacuum comes a minute or more later.
    @Test func aSaveOfManyAlbumsLeavesTheirTableVacuumed() async throws {
        let url = try await TestServer.freshDatabase()
        let storage = try PostgresStorage(url: url)
        try await storage.create()
        _ = try psql(url, "ALTER TABLE albumkit_albums SET (autovacuum_enabled = false)")
        let albums = CompatFixtures.numberedAlbums(count: 2_000, genre: String(repeating: "g", count: 200))
        try await storage.withWriter { writer, _ in try await writer.save(LibrarySnapshot(albums: albums), change: .replaceAll()) }
        let pages = try psql(url, "SELECT relpages || ' ' || relallvisible FROM pg_class WHERE relname = 'albumkit_albums'").split(separator: " ")
        #expect(pages.count == 2 && (Int(pages[0]) ?? 0) > 0 && pages[0] == pages[1], "pages, all visible: \(pages)")
    }

    private func psql(_ url: String, _ query: String) throws -> String {
        let result = try runProgram("/usr/bin/psql", [url, "-At", "-c", query])
        #expect(result.status == 0, "\(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
