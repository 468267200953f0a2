import AlbumKit
import AlbumKitTesting
import Foundation
import SQLiteStorage
import Synchronization
import Testing

/// A listing of a database is judged and handed over a run at a time as the rows are read:
/// across several runs every album comes once, in order, with its own cover state, and the
/// memento read with them (the current album) is the one the library keeps.
@Suite struct SQLiteListingTests {
    @Test func aListingOverManyRunsKeepsOrderAndCoverStates() async throws {
        let folder = try TemporaryFolder("sqlite-listing")
        defer { folder.remove() }
        let storage = SQLiteStorage(file: folder.path("library.sqlite"))
        try await storage.create()
        let stored = try await storage.covers.put(Data([0x89, 0x50, 0x4E, 0x47, 2]), fileExtension: "png")
        let absent = CoverKey(sha256: String(repeating: "f", count: 64), fileExtension: "jpg")
        let count = 20_011
        let albums = CompatFixtures.numberedAlbums(count: count, covers: [stored.bundlePath, absent.bundlePath, nil])
        try await storage.withWriter { writer, _ in try await writer.save(LibrarySnapshot(albums: albums), change: .replaceAll()) }
        try await Library.open(storage, hub: NotificationHub()).select(.position(12_345))

        let library = try await Library.open(storage, hub: NotificationHub())
        var runs = 0
        var listed: [ListedAlbum] = []
        for try await run in library.listedPages() {
            runs += 1
            listed += run
        }
        #expect(runs > 1, "a listing of \(count) albums came in one run")
        #expect(listed.map(\.position) == Array(1...count))
        #expect(listed.map(\.album) == albums)
        #expect(listed.map(\.cover) == (0..<count).map { [CoverState.stored, .missing, .none][$0 % 3] })
        #expect(await library.memento.current == "id-12344")
        let missing = try await library.listed(matching: AlbumQuery(terms: ["cover:missing"]))
        #expect(missing.map(\.position) == Array(stride(from: 2, through: count, by: 3)))
    }

    /// Runs are handed over as the rows are read, not after: with row 15 000 damaged, the
    /// first run of 8 192 albums has been handed over before the read stops at it.
    @Test func runsAreHandedOverBeforeTheReadEnds() async throws {
        let folder = try TemporaryFolder("sqlite-runs")
        defer { folder.remove() }
        let file = folder.path("library.sqlite")
        let storage = SQLiteStorage(file: file)
        let albums = CompatFixtures.numberedAlbums(count: 20_000, paddedIDs: true)
        try await storage.create(holding: albums)
        let damage = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE albumkit_albums SET year = 'abcde' WHERE id = 'id-15000'\"); c.commit(); c.close()"
        let python = try Process.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", damage, file.path])
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)

        let runs = Mutex<[Int]>([])
        await #expect(throws: AlbumKitError.self) {
            try await SQLiteStorage(file: file).load(pagesOf: 8192, details: Set(AlbumField.all), lookups: false) { piece in
                if case .albums(let run) = piece { runs.withLock { $0.append(run.count) } }
            }
        }
        #expect(runs.withLock { $0 } == [8192], "the runs before the damaged row")
    }

    /// The covers' digests go to SQLite as one JSON array, whatever their text: a key made from
    /// text that is no digest (quotes, a backslash, a control character, accents) is looked up
    /// like any other, and not found.
    @Test func coverKeysOfAnyTextAreLookedUpAsOneJSONArray() async throws {
        let folder = try TemporaryFolder("sqlite-cover-keys")
        defer { folder.remove() }
        let storage = SQLiteStorage(file: folder.path("library.sqlite"))
        try await storage.create()
        let stored = try await storage.covers.put(Data([0x89, 0x50, 0x4E, 0x47, 3]), fileExtension: "png")
        let odd = CoverKey(sha256: "a\"b\\c\u{1}\té", fileExtension: "png")
        #expect(try await storage.covers.storedKeys(among: [odd, stored, odd]) == [stored])
    }

    /// A listing is not held back by its consumer and reads every album in one statement: two
    /// rows sharing a sort key (which the store never writes, but a hand-edited database may
    /// hold) where a listing's run of 8 192 ends are both listed. A read a statement a run
    /// could only fail there rather than skip one (the export's, held back: SQLiteExportTests).
    @Test func rowsSharingASortKeyAreAllListed() async throws {
        let folder = try TemporaryFolder("sqlite-listing-shared-key")
        defer { folder.remove() }
        let file = folder.path("library.sqlite")
        let storage = SQLiteStorage(file: file)
        let albums = CompatFixtures.numberedAlbums(count: 8_200, paddedIDs: true)
        try await storage.create(holding: albums)
        let share = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("UPDATE albumkit_albums SET sort_key = (SELECT sort_key FROM albumkit_albums WHERE id = 'id-08191') WHERE id = 'id-08192'")
            c.commit()
            """
        #expect(try runProgram("/usr/bin/env", ["python3", "-c", share, file.path]).status == 0)

        let listed = try await Library.open(SQLiteStorage(file: file), hub: NotificationHub()).listed()
        #expect(listed.map(\.position) == Array(1...albums.count))
        #expect(Set(listed.map(\.album.id)) == Set(albums.map(\.id)))
    }
}

/// A listing reads only the details its query, order and output name (a table of the core six
/// none): every kind of query, every order and every field in a template gives the same
/// albums, in the same order, with the same text, as a listing of the whole albums.
@Suite struct SQLiteListingDetailsTests {
    /// Albums with every kind of detail, some of each missing.
    private static func albums() throws -> [Album] {
        try (0..<48).map { index in
            var details = AlbumDetails()
            details[.label] = ["Warp", "Wárp Records", nil, "Ninja Tune"][index % 4]
            details[.catalogNumber] = index % 3 == 0 ? "WARP \(index)" : nil
            details[.rating] = index % 7 == 0 ? nil : String(Double(index % 10 + 1) / 2)
            details[.released] = index % 5 == 0 ? nil : "19\(90 + index % 10)-0\(index % 9 + 1)"
            details[.added] = index % 6 == 0 ? nil : "202\(index % 5)-01-02T03:04:05Z"
            details.tags = index % 2 == 0 ? ["ambient", "idm \(index % 3)"] : []
            details.ids = index % 3 == 1 ? ["discogs": "\(index * 7)", "musicbrainz": "mb-\(index)"] : [:]
            details.fields = index % 4 == 2 ? ["mood": ["calm", "dark"][index / 4 % 2], "discogs.folder": "Jazz \(index % 3)"] : [:]
            details.tracks = (0..<(index % 5)).map { Track(title: "Track \($0)", number: $0 + 1) }
            return try Album(
                id: AlbumID("id-\(index)"), title: "Album \(47 - index)", artist: ["Aphex", "Boards", "Autechre"][index % 3],
                genre: index % 2 == 0 ? "Electronic" : "", year: "", details: details)
        }
    }

    /// Every attribute a query, sort or template can name here.
    private static let names = AlbumAttribute.names + ["ids.discogs", "ids.musicbrainz", "fields.mood", "discogs.folder"]

    private static let queries = [
        "label:warp", "^label:warp", "label:", "catalogNumber:WARP", "rating:3", "rating:2..4", "rating:..1.5", "rating:4.5..",
        "has:rating", "^has:label", "has:tags", "tags:idm", "fields.mood:calm", "mood:dark", "discogs.folder:Jazz", "ids.discogs:28",
        "has:ids.musicbrainz", "^has:ids.discogs", "tracks:3", "tracks:2..", "has:tracks", "released:1995..1997", "added:2023..",
        "aphex", "artist:aphex label:warp", "cover:none",
    ]

    @Test func everyQueryOrderAndTemplateGivesWhatTheWholeAlbumsGive() async throws {
        let folder = try TemporaryFolder("sqlite-listing-details")
        defer { folder.remove() }
        let library = try await Self.library(in: folder)
        let core = try AlbumTemplate(parsing: (AlbumField.core.map(\.name) + ["cover"]).map { "${\($0)}" }.joined(separator: "|"))

        for text in Self.queries {
            let query = try AlbumQuery(parsing: text)
            let whole = try await library.listed(matching: query)
            #expect(!whole.isEmpty, "'\(text)' matches no album: the test would not see a difference")
            let table = try await listed(library, query, details: [])
            #expect(table.map(\.position) == whole.map(\.position), "'\(text)' read for a table")
            #expect(table.map { core.render($0) } == whole.map { core.render($0) }, "'\(text)' read for a table")
            for descending in ["", "-"] {
                for name in Self.names {
                    let order = try AlbumSort(parsing: [name + descending])
                    let sorted = order.sorted(try await listed(library, query, details: order.details))
                    #expect(sorted.map(\.position) == order.sorted(whole).map(\.position), "'\(text)' sorted by \(name)\(descending)")
                }
            }
        }
        for name in Self.names {
            let template = try AlbumTemplate(parsing: "${\(name)}")
            let lines = try await listed(library, .all, details: template.details).map { template.render($0) }
            #expect(lines == (try await library.listed()).map { template.render($0) }, "the template ${\(name)}")
        }
    }

    /// A page of `serve` for a query or an order lists only the details they name, then reads
    /// the page's albums whole: the same albums, whole, as cut from a listing of whole albums.
    @Test func aPageOfAQueryOrAnOrderHoldsWholeAlbums() async throws {
        let folder = try TemporaryFolder("sqlite-page-details")
        defer { folder.remove() }
        let library = try await Self.library(in: folder)
        for text in Self.queries + [""] {
            let query = try AlbumQuery(parsing: text)
            for sort in ["", "label-", "rating", "ids.discogs", "tracks-", "title"] {
                let order = try AlbumSort(parsing: [sort])
                guard !query.isEmpty || !order.keys.isEmpty else { continue }
                let whole = order.sorted(try await library.listed(matching: query))
                let page = try await library.page(matching: query, order: order, offset: 3, limit: 7)
                #expect(page.total == whole.count, "'\(text)' sorted by '\(sort)'")
                #expect(page.albums.map(\.listed) == Array(whole.dropFirst(3).prefix(7)), "'\(text)' sorted by '\(sort)'")
            }
        }
    }

    /// An SQLite library in `folder` holding ``albums()``.
    private static func library(in folder: TemporaryFolder) async throws -> Library {
        let storage = SQLiteStorage(file: folder.path("library.sqlite"))
        try await storage.create(holding: try albums())
        return try await Library.open(storage, hub: NotificationHub())
    }

    private func listed(_ library: Library, _ query: AlbumQuery, details: Set<AlbumField>) async throws -> [ListedAlbum] {
        var listed: [ListedAlbum] = []
        for try await run in library.listedPages(matching: query, details: details) { listed += run }
        return listed
    }
}
