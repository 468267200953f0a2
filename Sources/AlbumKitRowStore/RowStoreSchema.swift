import AlbumKit
import Foundation

/// The versions of a row store's tables and how an older library is brought up to date.
///
/// The driver's version table holds one row: the version the tables are at. Versions 1 and 2
/// are each engine's own (``RowStoreDriver/legacySchema``: version 1 kept the whole history
/// inside the memento, version 2 a step per row); at version 3 both engines reach the shared
/// layout of ``RowStoreSQL`` — the engine's statements rename its tables, then the steps
/// here add what both share; version 4 stores each album's duplicate key, version 5 indexed
/// it with the library order beside it, version 6 indexes its digest instead (a key too long
/// for an index entry cannot be stored), version 7 keeps the fields beyond the core six
/// (SPEC 1) as JSON in a column of their own, version 8 each album's folded text, for queries
/// the database answers (``LibraryTextSearch``), version 9 the lookup answers in a table of
/// their own instead of the memento, version 10 remade the engine's search indexes where they
/// differ (``RowStoreDriver/formerSearchIndexes``). A library from an
/// older albumkit is upgraded in one writing transaction the first time this build connects to
/// it; one from a newer albumkit is refused, untouched.
enum RowStoreSchema {
    /// The version at which every engine's tables have the shared layout.
    static let sharedLayoutVersion = 3
    /// The version that added the duplicate key (``storeDuplicateKeys(_:)``).
    static let duplicateKeyVersion = 4
    /// The version that indexed the duplicate key with the order (``orderDuplicateKeys(_:)``).
    static let duplicateOrderVersion = 5
    /// The version that indexes the duplicate key's digest instead (``digestDuplicateKeys(_:)``).
    static let duplicateDigestVersion = 6
    /// The version that added the `details` column (``addDetails(_:)``).
    static let detailsVersion = 7
    /// The version that added the search columns (``addSearchText(_:_:)``).
    static let searchTextVersion = 8
    /// The version that moved the lookup answers to their own table (``moveLookupAnswers(_:_:)``).
    static let lookupsVersion = 9
    /// The version that remade the search indexes (``remakeSearchIndexes(_:_:)``).
    static let searchIndexesVersion = 10
    /// The version this build writes.
    static let currentVersion = 10

    /// Creates every table in an empty store, then tunes their storage
    /// (``RowStoreDriver/storageTuning``), inside the caller's creating transaction.
    static func create<Driver: RowStoreDriver>(on connection: Driver.Connection, _ driver: Driver) async throws {
        guard try await !driver.tableExists(driver.versionTable, on: connection) else {
            throw AlbumKitError(.libraryState, "a library already exists at \(driver.location); it was left as it is")
        }
        try await connection.execute("CREATE TABLE \(driver.versionTable) (version integer NOT NULL)", [])
        try await connection.execute("INSERT INTO \(driver.versionTable) (version) VALUES (0)", [])
        try await upgrade(connection, driver, from: 0)
        for statement in driver.storageTuning { try await connection.execute(statement, []) }
    }

    /// Checks that this build reads the library on `connection` and upgrades it when it is
    /// older, under the writer lock (another process may be upgrading it at the same time).
    static func prepare<Driver: RowStoreDriver>(_ connection: Driver.Connection, _ driver: Driver) async throws {
        guard try await version(connection, driver) < currentVersion else { return }
        try await driver.beginWriting(connection)
        do {
            try await upgrade(connection, driver, from: try await version(connection, driver))
            try await connection.execute("COMMIT", [])
        } catch {
            try? await connection.execute("ROLLBACK", [])
            throw error
        }
    }

    /// The library's version, after checking that this build can read it.
    private static func version<Driver: RowStoreDriver>(_ connection: Driver.Connection, _ driver: Driver) async throws -> Int {
        guard try await driver.tableExists(driver.versionTable, on: connection),
            let version = try await connection.first("SELECT version FROM \(driver.versionTable)", [], { try $0.integer(0) })
        else {
            throw AlbumKitError(.unreadableInput, "\(driver.location): not an albumkit library (no \(driver.versionTable) table); the \(driver.container) was left as it is")
        }
        guard version <= currentVersion else {
            throw AlbumKitError(.unreadableInput, "\(driver.location): written by a newer albumkit (schema version \(version); this one reads up to \(currentVersion)); the \(driver.container) was left as it is")
        }
        return Int(version)
    }

    /// Applies every step after `version` (inside the caller's writing transaction).
    private static func upgrade<Driver: RowStoreDriver>(_ connection: Driver.Connection, _ driver: Driver, from version: Int) async throws {
        guard version < currentVersion else { return }
        for step in version..<currentVersion {
            if step < sharedLayoutVersion {
                for statement in driver.legacySchema[step] { try await connection.execute(statement, []) }
            }
            if step + 1 == sharedLayoutVersion { try await reachSharedLayout(connection, driver) }
            if step + 1 == duplicateKeyVersion { try await storeDuplicateKeys(connection) }
            if step + 1 == duplicateOrderVersion { try await orderDuplicateKeys(connection) }
            if step + 1 == duplicateDigestVersion { try await digestDuplicateKeys(connection) }
            if step + 1 == detailsVersion { try await addDetails(connection) }
            if step + 1 == searchTextVersion { try await addSearchText(connection, driver) }
            if step + 1 == lookupsVersion { try await moveLookupAnswers(connection, driver) }
            if step + 1 == searchIndexesVersion { try await remakeSearchIndexes(connection, driver) }
        }
        try await connection.execute("UPDATE \(driver.versionTable) SET version = ?", [.integer(Int64(currentVersion))])
    }

    /// Version 3, what both engines share once their tables are renamed: a version 1
    /// memento's history moves into step rows, and the album count and the block table
    /// (``BlockIndex``) are added and filled from the rows there.
    private static func reachSharedLayout<Driver: RowStoreDriver>(_ connection: Driver.Connection, _ driver: Driver) async throws {
        let rows = AlbumRowReader(location: driver.location, container: driver.container)
        guard let data = try await connection.first(RowStoreSQL.state, [], { try $0.bytes(0) }) else {
            throw rows.damaged("table albumkit_state has no row")
        }
        let (state, carried): (LibraryState, [Int64: HistoryStep])
        do {
            (state, carried) = try StoredMemento.decode(data)
        } catch {
            throw rows.damaged("table albumkit_state holds an unreadable memento (\(error))")
        }
        for (id, step) in carried.sorted(by: { $0.key < $1.key }) {
            try await connection.execute(RowStoreSQL.writeStep, [.integer(id), .text(String(decoding: try JSONEncoder().encode(step), as: UTF8.self))])
        }
        try await connection.execute("ALTER TABLE albumkit_state ADD COLUMN album_count bigint NOT NULL DEFAULT 0", [])
        try await connection.execute("CREATE TABLE albumkit_blocks (low_key double precision PRIMARY KEY, album_count bigint NOT NULL)", [])
        let keys = try await connection.everyKey()
        let blocks = BlockIndex(laidOver: keys)
        for (low, count) in zip(blocks.lows, blocks.counts) {
            try await connection.execute(RowStoreSQL.writeBlock, [.real(low), .integer(Int64(count))])
        }
        let generation = try await connection.first("SELECT generation FROM albumkit_state WHERE id = 1", []) { try $0.integer(0) } ?? 0
        let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        try await connection.execute(RowStoreSQL.saveState, [.integer(generation + 1), .text(json), .integer(Int64(keys.count))])
    }

    /// Version 4: each album's ``Album/duplicateKey`` in a column of its own, filled from the
    /// rows there, so that `add` asks about a duplicate without reading every album. Version 4
    /// indexed the column too; the index is version 6's now, on the key's digest: a library
    /// upgraded from before version 4 may hold keys too long for an index entry.
    private static func storeDuplicateKeys<Connection: RowConnection>(_ connection: Connection) async throws {
        try await connection.execute("ALTER TABLE albumkit_albums ADD COLUMN duplicate_key text NOT NULL DEFAULT ''", [])
        let rows = try await connection.query("SELECT id, artist, title, year FROM albumkit_albums", []) {
            (id: try $0.text(0), key: Album.duplicateKey(artist: try $0.text(1), title: try $0.text(2), year: try $0.text(3)))
        }
        for row in rows {
            try await connection.execute("UPDATE albumkit_albums SET duplicate_key = ? WHERE id = ?", [.text(row.key), .text(row.id)])
        }
    }

    /// Version 5 indexed the duplicate key with the sort key beside it; the index is version
    /// 6's now (``digestDuplicateKeys(_:)``). What is left: a version 4 library's index goes.
    private static func orderDuplicateKeys<Connection: RowConnection>(_ connection: Connection) async throws {
        try await connection.execute("DROP INDEX IF EXISTS albumkit_albums_duplicate_key", [])
    }

    /// Version 6: the duplicate key's digest (``RowStoreSQL/duplicateDigest(_:)``) in a column
    /// of its own, filled from the rows there and indexed with the sort key beside it, so that
    /// the first duplicate in library order (``RowStoreSQL/firstDuplicate``) is one probe of one
    /// index whatever the key's length. On the key alone, a PostgreSQL planner without
    /// statistics (right after a large import) walked the whole order index instead,
    /// filtering, so every `add` read the whole order (BENCHMARKS.md). A version 5 library's
    /// index on the key itself goes.
    private static func digestDuplicateKeys<Connection: RowConnection>(_ connection: Connection) async throws {
        try await connection.execute("ALTER TABLE albumkit_albums ADD COLUMN duplicate_digest text NOT NULL DEFAULT ''", [])
        let rows = try await connection.query("SELECT id, duplicate_key FROM albumkit_albums", []) {
            (id: try $0.text(0), digest: RowStoreSQL.duplicateDigest(try $0.text(1)))
        }
        for row in rows {
            try await connection.execute("UPDATE albumkit_albums SET duplicate_digest = ? WHERE id = ?", [.text(row.digest), .text(row.id)])
        }
        try await connection.execute("CREATE INDEX albumkit_albums_duplicate_digest ON albumkit_albums (duplicate_digest, sort_key)", [])
        try await connection.execute("DROP INDEX IF EXISTS albumkit_albums_duplicate_order", [])
    }

    /// Version 7: the fields beyond the core six, as one JSON object per album (null for an
    /// album that has none, as every album of an older library).
    private static func addDetails<Connection: RowConnection>(_ connection: Connection) async throws {
        try await connection.execute("ALTER TABLE albumkit_albums ADD COLUMN details text", [])
    }

    /// Version 8: each album's folded text (``Album/searchCore``, ``Album/searchText``) in two
    /// columns, filled from the rows there, and the engine's index on them
    /// (``RowStoreDriver/searchIndexes``).
    private static func addSearchText<Driver: RowStoreDriver>(_ connection: Driver.Connection, _ driver: Driver) async throws {
        try await connection.execute("ALTER TABLE albumkit_albums ADD COLUMN search_core text NOT NULL DEFAULT ''", [])
        try await connection.execute("ALTER TABLE albumkit_albums ADD COLUMN search_text text NOT NULL DEFAULT ''", [])
        let rows = AlbumRowReader(location: driver.location, container: driver.container)
        let albums = try await connection.query(RowStoreSQL.everyAlbum, []) { [rows] in try rows.album($0).album }
        for album in albums {
            try await connection.execute(RowStoreSQL.updateSearch, [.text(album.searchCore), .text(album.searchText), .text(album.id.rawValue)])
        }
        for statement in driver.searchIndexes { try await connection.execute(statement, []) }
    }

    /// Version 10: the engine's search indexes made again where they differ from version 8's
    /// (``RowStoreDriver/formerSearchIndexes``): SQLite's covers the core six's columns too, so
    /// that a search that reads no details never reads the table.
    private static func remakeSearchIndexes<Driver: RowStoreDriver>(_ connection: Driver.Connection, _ driver: Driver) async throws {
        guard !driver.formerSearchIndexes.isEmpty else { return }
        for statement in driver.formerSearchIndexes + driver.searchIndexes { try await connection.execute(statement, []) }
    }

    /// Version 9: the lookup answers (SPEC 11) in a table of their own, a row per answer keyed
    /// as in the memento, moved there from the memento: with an answer for every album looked
    /// up, the memento every command reads and every change writes had grown to megabytes
    /// (BENCHMARKS.md, the lookup cache).
    private static func moveLookupAnswers<Driver: RowStoreDriver>(_ connection: Driver.Connection, _ driver: Driver) async throws {
        try await connection.execute("CREATE TABLE albumkit_lookups (key text PRIMARY KEY, answer text NOT NULL)", [])
        let rows = AlbumRowReader(location: driver.location, container: driver.container)
        guard let data = try await connection.first(RowStoreSQL.state, [], { try $0.bytes(0) }) else {
            throw rows.damaged("table albumkit_state has no row")
        }
        var state: LibraryState
        do {
            state = try LibraryState(json: data)
        } catch {
            throw rows.damaged("table albumkit_state holds an unreadable memento (\(error))")
        }
        guard !state.lookups.isEmpty else { return }
        let answers = state.lookups.sorted { $0.key < $1.key }
        for start in stride(from: 0, to: answers.count, by: RowStoreSQL.lookupBatch) {
            let batch = answers[start..<min(start + RowStoreSQL.lookupBatch, answers.count)]
            try await connection.execute(RowStoreSQL.writeLookups(batch.count), batch.flatMap { [SQLValue.text($0.key), .text($0.value.json)] })
        }
        state.lookups = [:]
        try await connection.execute("UPDATE albumkit_state SET generation = generation + 1, state = ? WHERE id = 1", [.text(state.json)])
    }
}
