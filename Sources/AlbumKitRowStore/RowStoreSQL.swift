import AlbumKit
import Foundation

/// Every statement a row store runs once its tables have the shared layout, in the SQL that
/// SQLite and PostgreSQL both speak (`?` for each argument), and the forms an engine may read
/// instead (``everyKeyInOneRow``):
///
/// ```
/// albumkit_albums  (id PK, sort_key, title, artist, genre, year, cover_url, duplicate_key, duplicate_digest, details,
///                   search_core, search_text)
///                  indexes on sort_key and on (duplicate_digest, sort_key) (Album.duplicateKey, its SHA-256);
///                  details: the fields beyond the core six as JSON (Album.detailsJSON), or null;
///                  search_core, search_text: the album's folded text (Album.searchCore, Album.searchText)
/// albumkit_blocks  (low_key PK, album_count)         see BlockIndex
/// albumkit_state   (id = 1, generation, state, album_count)   the memento as JSON
/// albumkit_history (id PK, step)                     one history step as JSON per row
/// albumkit_covers  (sha256, file_extension, bytes)   PK (sha256, file_extension)
/// albumkit_lookups (key PK, answer)                  a lookup answer as JSON per row (LookupAnswer.json)
/// ```
enum RowStoreSQL {
    /// The core six's columns, in ``AlbumRowReader/album(_:)``'s order.
    static let coreFieldColumns = "id, title, artist, genre, year, cover_url"
    /// The core six columns and the key, in ``AlbumRowReader/album(_:)``'s order.
    static let coreColumns = "\(coreFieldColumns), sort_key"
    /// The columns an album row is read with, in ``AlbumRowReader/album(_:)``'s order.
    static let albumColumns = "\(coreColumns), details"
    /// Where ``albumsHolding(_:details:folded:throughKeys:)`` puts `search_core` (and
    /// `search_text` after it): after ``albumColumns``.
    static let foldedColumn = 8

    static let header = "SELECT generation, album_count FROM albumkit_state WHERE id = 1"
    static let state = "SELECT state FROM albumkit_state WHERE id = 1"
    static let saveState = "UPDATE albumkit_state SET generation = ?, state = ?, album_count = ? WHERE id = 1"

    static let blocks = "SELECT low_key, album_count FROM albumkit_blocks ORDER BY low_key"
    static let deleteBlock = "DELETE FROM albumkit_blocks WHERE low_key = ?"
    static let deleteBlocks = "DELETE FROM albumkit_blocks"
    static let writeBlock =
        "INSERT INTO albumkit_blocks (low_key, album_count) VALUES (?, ?) ON CONFLICT (low_key) DO UPDATE SET album_count = excluded.album_count"

    /// `LIMIT`/`OFFSET` counted from a block's low key, so at most a block's rows are skipped.
    static let albumsFrom = "SELECT \(albumColumns) FROM albumkit_albums WHERE sort_key >= ? ORDER BY sort_key LIMIT ? OFFSET ?"
    static let keysFrom = "SELECT id, sort_key FROM albumkit_albums WHERE sort_key >= ? ORDER BY sort_key LIMIT ? OFFSET ?"
    static let keysBetween = "SELECT sort_key FROM albumkit_albums WHERE sort_key >= ? AND sort_key < ? ORDER BY sort_key"
    static let countBetween = "SELECT count(*) FROM albumkit_albums WHERE sort_key >= ? AND sort_key < ?"
    static let countOfKey = "SELECT count(*) FROM albumkit_albums WHERE sort_key = ?"
    static let keyOfID = "SELECT sort_key FROM albumkit_albums WHERE id = ?"
    /// For each of `count` pairs of arguments (a low key, a key): the key and how many keys
    /// lie from the low key up to it, in one statement.
    static func countsBetween(_ count: Int) -> String {
        "SELECT v.column2, (SELECT count(*) FROM albumkit_albums WHERE sort_key >= v.column1 AND sort_key < v.column2) FROM (VALUES "
            + repeatElement("(?, ?)", count: count).joined(separator: ", ") + ") AS v"
    }
    static let everyAlbum = "SELECT \(albumColumns) FROM albumkit_albums ORDER BY sort_key"
    /// ``everyAlbum`` a run at a time: at most so many albums after a key (the first run after
    /// minus infinity), each run found through the index on `sort_key`; every album at once
    /// after minus infinity and at most `Int64.max`.
    static let albumsAfter = "SELECT \(albumColumns) FROM albumkit_albums WHERE sort_key > ? ORDER BY sort_key LIMIT ?"
    /// ``albumsAfter`` without the details: a null in their place, for a listing of the core six.
    static let coreAlbumsAfter = "SELECT \(coreColumns), NULL FROM albumkit_albums WHERE sort_key > ? ORDER BY sort_key LIMIT ?"
    static let everyKey = "SELECT sort_key FROM albumkit_albums ORDER BY sort_key"
    /// ``everyKey`` as one row of one array (PostgreSQL's `ARRAY(subquery)`), empty when there
    /// are no albums: for an engine that hands each row over at a cost of its own. The ordered
    /// subquery hands the keys over as the order's index holds them; PostgreSQL 15 sorted the
    /// input of the ordered aggregate this was before (`array_agg(sort_key ORDER BY sort_key)`)
    /// once more even when it came from that index.
    static let everyKeyInOneRow = "SELECT ARRAY(SELECT sort_key FROM albumkit_albums ORDER BY sort_key)"
    /// The sort keys, in order, of the albums whose search columns hold every word, each
    /// word a ``pattern(_:)`` argument.
    static func placesHolding(_ words: [SearchWord]) -> String {
        "SELECT sort_key FROM albumkit_albums\(holding(words)) ORDER BY sort_key"
    }
    /// The albums (``albumColumns``, or the core ones and a null; and with `folded`, the
    /// search columns at ``foldedColumn``) whose search columns hold every word, in no
    /// particular order: the table filtered (which an index covering the columns read answers
    /// alone), or, for the details through an engine that `throughKeys`, the rows of the keys
    /// that a search of the index finds.
    static func albumsHolding(_ words: [SearchWord], details: Bool, folded: Bool, throughKeys: Bool) -> String {
        let columns = "SELECT \(details ? albumColumns : coreColumns + ", NULL")\(folded ? ", search_core, search_text" : "") FROM albumkit_albums"
        return throughKeys && details
            ? "\(columns) WHERE sort_key IN (SELECT sort_key FROM albumkit_albums\(holding(words)))" : columns + holding(words)
    }
    /// The albums (as ``albumsHolding(_:details:throughKeys:)``) whose search columns hold
    /// every word, the first `LIMIT` (the last argument) after a sort key (the first), in
    /// library order: the order's index walked and the words checked on the way, so a word
    /// many albums hold costs a few rows, not all of them.
    static func firstAlbumsHolding(_ words: [SearchWord], details: Bool, throughKeys: Bool) -> String {
        let columns = "SELECT \(details ? albumColumns : coreColumns + ", NULL") FROM albumkit_albums"
        let first = "WHERE sort_key > ?\(words.map { " AND " + condition($0) }.joined()) ORDER BY sort_key LIMIT ?"
        return throughKeys ? "\(columns) WHERE sort_key IN (SELECT sort_key FROM albumkit_albums \(first)) ORDER BY sort_key" : "\(columns) \(first)"
    }
    /// The `WHERE` clause that each word's column holds it.
    private static func holding(_ words: [SearchWord]) -> String {
        words.isEmpty ? "" : " WHERE " + words.map(condition).joined(separator: " AND ")
    }
    /// That `word`'s column holds it (`LIKE`, escaped with a backslash).
    private static func condition(_ word: SearchWord) -> String {
        "\(word.inCore ? "search_core" : "search_text") LIKE ? ESCAPE '\\'"
    }
    /// The `LIKE` pattern that finds `word` anywhere in a column.
    static func pattern(_ word: SearchWord) -> SQLValue {
        var escaped = ""
        for character in word.folded {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return .text("%\(escaped)%")
    }
    /// The albums (``albumColumns``, or the core ones and a null) whose sort key is one of `count`.
    static func albumsWithKeys(_ count: Int, details: Bool) -> String {
        "SELECT \(details ? albumColumns : coreColumns + ", NULL") FROM albumkit_albums WHERE sort_key IN ("
            + repeatElement("?", count: count).joined(separator: ", ") + ") ORDER BY sort_key"
    }
    /// The first album in library order with a duplicate key (``Album/duplicateKey``): found
    /// by its digest (``duplicateDigest(_:)``), the key itself compared on each album found.
    static let firstDuplicate = "SELECT id FROM albumkit_albums WHERE duplicate_digest = ? AND duplicate_key = ? ORDER BY sort_key LIMIT 1"

    /// What the duplicate key is indexed by: its SHA-256 in hex, 64 characters whatever its
    /// length. A key is up to three 64 KiB fields long; an index entry must fit in a third of
    /// a page (PostgreSQL refused a 12 KB title: "index row size 4024 exceeds btree version 4
    /// maximum 2704").
    static func duplicateDigest(_ key: String) -> String {
        SHA256Digest.hex(of: Data(key.utf8))
    }

    static let updateAlbum =
        "UPDATE albumkit_albums SET title = ?, artist = ?, genre = ?, year = ?, cover_url = ?, duplicate_key = ?, duplicate_digest = ?, details = ?, search_core = ?, search_text = ? WHERE id = ?"
    static let updateSearch = "UPDATE albumkit_albums SET search_core = ?, search_text = ? WHERE id = ?"
    static let moveAlbum = "UPDATE albumkit_albums SET sort_key = ? WHERE id = ?"
    static let deleteAlbum = "DELETE FROM albumkit_albums WHERE id = ?"
    static let deleteAlbumsBetween = "DELETE FROM albumkit_albums WHERE sort_key >= ? AND sort_key <= ?"
    static let deleteAlbums = "DELETE FROM albumkit_albums"

    /// Rows per multi-row `INSERT` (12 arguments each: well under both engines' limits).
    static let insertBatch = 500
    /// The insert of `rows` albums (``insertArguments(_:key:)`` each), said with `verb`
    /// (``RowStoreDriver/insertVerb``).
    static func insertAlbums(_ rows: Int, verb: String) -> String {
        verb + " INTO albumkit_albums (id, sort_key, title, artist, genre, year, cover_url, duplicate_key, duplicate_digest, details, search_core, search_text) VALUES "
            + repeatElement("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    static let step = "SELECT step FROM albumkit_history WHERE id = ?"
    static let writeStep = "INSERT INTO albumkit_history (id, step) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET step = excluded.step"
    static let deleteStep = "DELETE FROM albumkit_history WHERE id = ?"
    static let deleteSteps = "DELETE FROM albumkit_history"

    static let everyLookup = "SELECT key, answer FROM albumkit_lookups"
    static let deleteLookups = "DELETE FROM albumkit_lookups"
    /// Rows per multi-row statement of lookup answers (2 arguments each).
    static let lookupBatch = 500
    /// The answers whose key is one of `count` arguments: key, answer.
    static func lookups(count: Int) -> String {
        "SELECT key, answer FROM albumkit_lookups WHERE key IN (" + repeatElement("?", count: count).joined(separator: ", ") + ")"
    }
    /// `INSERT` of `count` answers (key, answer each), each replacing the one under its key.
    static func writeLookups(_ count: Int) -> String {
        "INSERT INTO albumkit_lookups (key, answer) VALUES " + repeatElement("(?, ?)", count: count).joined(separator: ", ")
            + " ON CONFLICT (key) DO UPDATE SET answer = excluded.answer"
    }

    static let putCover = "INSERT INTO albumkit_covers (sha256, file_extension, bytes) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
    /// The insert of `count` covers (digest, extension, bytes each), said with `verb`
    /// (``RowStoreDriver/insertVerb``), that returns the digest and extension of each row it
    /// added: a cover already stored adds none.
    static func insertCovers(_ count: Int, verb: String) -> String {
        verb + " INTO albumkit_covers (sha256, file_extension, bytes) VALUES "
            + repeatElement("(?, ?, ?)", count: count).joined(separator: ", ")
            + " ON CONFLICT DO NOTHING RETURNING sha256, file_extension"
    }
    static let coverBytes = "SELECT bytes FROM albumkit_covers WHERE sha256 = ? AND file_extension = ?"
    /// The covers whose digest is one of `count` arguments: digest, extension, bytes.
    static func coverBytes(count: Int) -> String {
        "SELECT sha256, file_extension, bytes FROM albumkit_covers WHERE sha256 IN ("
            + repeatElement("?", count: count).joined(separator: ", ") + ")"
    }
    /// The digest and extension of each stored cover whose digest is one of `count`
    /// arguments (the primary key's index answers it).
    static func storedCoverKeys(count: Int) -> String {
        "SELECT sha256, file_extension FROM albumkit_covers WHERE sha256 IN ("
            + repeatElement("?", count: count).joined(separator: ", ") + ")"
    }
    /// ``storedCoverKeys(count:)`` with the digests as one JSON array (SQLite).
    static let storedCoverKeysInJSON = "SELECT sha256, file_extension FROM albumkit_covers WHERE sha256 IN (SELECT value FROM json_each(?))"
    /// ``storedCoverKeys(count:)`` with the digests as one array of text (PostgreSQL).
    static let storedCoverKeysInArray = "SELECT sha256, file_extension FROM albumkit_covers WHERE sha256 = ANY(?)"
    static let hasCover = "SELECT count(*) FROM albumkit_covers WHERE sha256 = ? AND file_extension = ?"
    static let coverKeys = "SELECT sha256, file_extension FROM albumkit_covers ORDER BY sha256, file_extension"
    /// Every cover's digest, extension and place, in the order `order`
    /// (``RowStoreDriver/storedOrder``) says, which is also the place.
    static func coverKeys(inOrderOf order: String) -> String {
        "SELECT sha256, file_extension, \(order) FROM albumkit_covers ORDER BY \(order)"
    }
    /// The covers at `count` places (the values of `order`) given as arguments: digest,
    /// extension, bytes.
    static func coverBytes(count: Int, inOrderOf order: String) -> String {
        "SELECT sha256, file_extension, bytes FROM albumkit_covers WHERE \(order) IN ("
            + repeatElement("?", count: count).joined(separator: ", ") + ")"
    }
    static let removeCover = "DELETE FROM albumkit_covers WHERE sha256 = ? AND file_extension = ? RETURNING length(bytes)"

    /// The arguments of `album`'s row for ``insertAlbums(_:verb:)``.
    static func insertArguments(_ album: Album, key: Double) -> [SQLValue] {
        let duplicateKey = album.duplicateKey
        return [.text(album.id.rawValue), .real(key), .text(album.title), .text(album.artist), .text(album.genre), .text(album.year),
         .optionalText(album.coverUrl), .text(duplicateKey), .text(duplicateDigest(duplicateKey)), .optionalText(album.detailsJSON),
         .text(album.searchCore), .text(album.searchText)]
    }

    /// The arguments of ``updateAlbum`` for `album`.
    static func updateArguments(_ album: Album) -> [SQLValue] {
        let duplicateKey = album.duplicateKey
        return [.text(album.title), .text(album.artist), .text(album.genre), .text(album.year), .optionalText(album.coverUrl),
         .text(duplicateKey), .text(duplicateDigest(duplicateKey)), .optionalText(album.detailsJSON), .text(album.searchCore),
         .text(album.searchText), .text(album.id.rawValue)]
    }
}

/// An album row as read, with its sort key.
struct StoredAlbum: Sendable {
    var album: Album
    var key: Double
}

/// An album's id and sort key, as a window of the order is read.
struct StoredKey: Sendable, Hashable {
    var id: AlbumID
    var key: Double
}

/// Reads rows selected with ``RowStoreSQL/albumColumns``, naming the library in errors.
struct AlbumRowReader: Sendable {
    /// For messages: the library's location and what holds it ("file", "database").
    let location: String
    let container: String

    /// The album and key of `row`, its details those of `details` (all when nil); a row that
    /// is not a valid album is an unreadable library.
    @Sendable func album(_ row: any SQLRow, details: Set<AlbumField>? = nil) throws -> StoredAlbum {
        try read(row) { row, album in
            // The details this store wrote were checked when their album was made: they are
            // parsed strictly, not checked again (checking them again was a large part of `list`:
            // BENCHMARKS.md, the measurements behind the code).
            if let text = try row.optionalText(7) { album.details = try AlbumDetails(json: text, only: details) }
            return StoredAlbum(album: album, key: try row.real(6))
        }
    }

    /// The album of `row` with every field, its details left as their text where that is in
    /// the writer's form (``WriterFormDetails``), else parsed as ``album(_:details:)`` parses them.
    @Sendable func albumWithText(_ row: any SQLRow) throws -> AlbumWithText {
        try read(row) { row, album in
            guard let text = try row.optionalText(7) else { return AlbumWithText(album) }
            if let inForm = WriterFormDetails(text) { return AlbumWithText(album, details: inForm) }
            album.details = try AlbumDetails(json: text)
            return AlbumWithText(album)
        }
    }

    /// What `finish` makes of `row` and its album of the core six; a row that is not a valid
    /// album is an unreadable library.
    private func read<T>(_ row: any SQLRow, _ finish: (any SQLRow, inout Album) throws -> T) throws -> T {
        let id = try row.text(0)
        do {
            var album = try Album(
                id: AlbumID(id), title: try row.text(1), artist: try row.text(2), genre: try row.text(3), year: try row.text(4),
                coverUrl: try row.optionalText(5))
            return try finish(row, &album)
        } catch {
            throw damaged("table albumkit_albums, row '\(id)': \(error)")
        }
    }

    /// The error for a library whose tables hold something this build cannot read.
    func damaged(_ what: String) -> AlbumKitError {
        AlbumKitError(.unreadableInput, "\(location): \(what); the \(container) was left as it is")
    }
}
