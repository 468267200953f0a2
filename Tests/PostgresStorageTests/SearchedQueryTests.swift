import AlbumKit
import AlbumKitTesting
import Foundation
import PostgresStorage
import SQLiteStorage
import Testing

/// A query a database narrows down (the search columns of schema version 8) answers exactly
/// what the same query answers over albums held in memory: the same albums, positions, covers,
/// totals and current album, for every kind of term, word and order — in SQLite and in
/// PostgreSQL, before and after changes made by this library and by another process.
@Suite struct SearchedQueryTests {
    /// Albums with accents, capitals, the characters `LIKE` treats specially (`%`, `_`, `\`),
    /// several lines of notes, and every kind of detail.
    private static func albums() throws -> [Album] {
        let titles = [
            "Café Tacvba", "CAFE society", "Homogenic", "Ágætis byrjun", "100% Pure", "100 Pure", "a_b", "axb", #"back\slash"#,
            "Backslash", "Low", "Heroes", "Lodger", "Selected Ambient Works", "Music Has the Right", "Geogaddi", "Tri Repetae",
            "Straße", "Strasse", "naïve", "Naive",
        ]
        return try titles.enumerated().map { index, title in
            var details = AlbumDetails()
            details[.label] = ["Warp", "Wárp Records", nil, "Ninja Tune", "WARP_Extra"][index % 5]
            details[.catalogNumber] = index % 3 == 0 ? "WARP \(index)" : nil
            details[.notes] = index % 4 == 0 ? "First line\nsecond LINE with café \(index)" : nil
            details[.rating] = index % 7 == 0 ? nil : String(Double(index % 10 + 1) / 2)
            details.tags = index % 2 == 0 ? ["ambient", "IDM \(index % 3)"] : []
            details.ids = index % 3 == 1 ? ["discogs": "\(index * 7)"] : [:]
            details.fields = index % 4 == 2 ? ["mood": ["Calm", "dárk"][index / 4 % 2]] : [:]
            return try Album(
                id: AlbumID("id-\(index)"), title: title, artist: ["Björk", "Aphex Twin", "Sigur Rós", "BOARDS of Canada"][index % 4],
                genre: ["Electrónica", "", "Rock"][index % 3], year: String(1990 + index % 9),
                coverUrl: index % 5 == 0 ? "https://example.com/\(index).jpg" : nil, details: details)
        }
    }

    private static let queries = [
        "cafe", "CAFÉ", "café", "bjork", "BJÖRK", "ros", "sigur ros", "\"sigur ros\"", "100%", "%", "a_b", "_", #"\"#, #"back\"#,
        "strasse", "straße", "naive", "naïve", "label:warp", "label:wárp", "label:_", "^label:warp", "label:warp bjork", "warp",
        "notes:line", "notes:\"second line\"", "notes:cafe", "tags:idm", "mood:dark", "mood:calm", "ids.discogs:7", "genre:electronica",
        "artist:aphex year:1991..1995", "cafe ^year:1990", "aphex position:3..10", "aphex cover:none", "cover:missing", "lo", "o",
        "catalogNumber:warp rating:2..", "title:low", "id:id-1", "xyzzy", "notes:\"line\nsecond\"", "^notes:line", "^tags:idm warp",
        "label:warp ^catalognumber:warp", "label:records",
    ]

    private static let orders = ["", "title", "label-", "rating", "artist year-"]

    @Test(.enabled(if: TestServer.enabled, TestServer.skipNote))
    func aQueryTheDatabaseNarrowsAnswersWhatTheHeldAlbumsAnswer() async throws {
        let folder = try TemporaryFolder("searched-queries")
        defer { folder.remove() }
        let (held, sqlite, postgres) = try await Self.libraries(in: folder)
        for library in [held, sqlite, postgres] { try await library.select(.position(7)) }

        try await Self.expectSame(held, [sqlite, postgres], "as imported")
        // Changes through the library itself: what it remembered of a search is not reused.
        for library in [held, sqlite, postgres] {
            try await library.add(AlbumRecord(id: AlbumID("new-1"), title: "Café Noir", artist: "New Artist", genre: "Jazz"), at: 2)
            var patch = AlbumPatch(title: "Renamed")
            try patch.set("label", to: "Warp")
            _ = try await library.update([AlbumID("id-3")], patch)
            _ = try await library.remove([.id(AlbumID("id-0"))])
        }
        try await Self.expectSame(held, [sqlite, postgres], "after changes")
    }

    /// A query checked on the albums' folded text (`label:warp`) reads only the details the
    /// listing shows, and only of the albums it keeps; one checked on the albums (`rating:2..`)
    /// reads those it looks at too. Both list what the held albums list.
    @Test(.enabled(if: TestServer.enabled, TestServer.skipNote))
    func aQueryCheckedOnFoldedTextReadsOnlyTheDetailsShown() async throws {
        let folder = try TemporaryFolder("searched-details")
        defer { folder.remove() }
        let (held, sqlite, postgres) = try await Self.libraries(in: folder)
        // The fields beyond the core six an album listed has.
        func present(_ listed: ListedAlbum) -> Set<AlbumField> {
            Set(AlbumField.scalars.filter { !listed.text(of: AlbumAttribute(name: $0.name)!).isEmpty } + (listed.album.tags.isEmpty ? [] : [.tags]))
        }
        for (text, read) in [("label:warp", Set<AlbumField>()), ("label:warp notes:line", []), ("rating:2.. label:warp", [.rating, .label])] {
            let query = try AlbumQuery(parsing: text)
            let expected = try await held.listed(matching: query)
            #expect(!expected.isEmpty, "'\(text)'")
            for store in [sqlite, postgres] {
                var listed: [ListedAlbum] = []
                for try await page in store.listedPages(matching: query, details: [.tags]) { listed += page }
                #expect(listed.map(\.position) == expected.map(\.position), "'\(text)'")
                #expect(listed.map(present) == expected.map { present($0).intersection(read.union([.tags])) }, "'\(text)'")
            }
        }
    }

    /// Another process's change moves the library on: the next search sees it.
    @Test(.enabled(if: TestServer.enabled, TestServer.skipNote))
    func anotherProcesssChangeIsSeenByTheNextSearch() async throws {
        let folder = try TemporaryFolder("searched-elsewhere")
        defer { folder.remove() }
        let url = try await TestServer.freshDatabase()
        for (reader, writer) in [
            (try await Self.library(SQLiteStorage(file: folder.path("library.sqlite")), try Self.albums()),
             try await Library.open(SQLiteStorage(file: folder.path("library.sqlite")), hub: NotificationHub())),
            (try await Self.library(try PostgresStorage(url: url), try Self.albums()), try await Library.open(try PostgresStorage(url: url), hub: NotificationHub())),
        ] {
            let query = try AlbumQuery(parsing: "cafe")
            #expect(try await reader.page(matching: query, offset: 0, limit: 10).total == 2)
            try await writer.add(AlbumRecord(title: "Another Café", artist: "Someone"))
            let page = try await reader.page(matching: query, offset: 0, limit: 10)
            #expect(page.total == 3)
            #expect(page.albums.last?.listed.album.title == "Another Café")
            #expect(try await reader.listed(matching: query).map(\.album.title) == ["Café Tacvba", "CAFE society", "Another Café"])
        }
    }

    /// Matches spread over many blocks of the order (their positions read from every key at
    /// once: in PostgreSQL as one array) and few (counted within their blocks) get the
    /// positions the held albums give, in SQLite and, when a server is at hand, PostgreSQL.
    @Test func positionsOfMatchesInManyBlocksAndInFew() async throws {
        let folder = try TemporaryFolder("searched-blocks")
        defer { folder.remove() }
        let albums = try (0..<6_000).map { index in
            try Album(id: AlbumID("id-\(index)"), title: index % 7 == 0 ? "Seventh \(index)" : "Album \(index)", artist: index == 4_321 ? "Rare" : "Common")
        }
        let held = try await Self.library(FileStorage(file: folder.path("library.json"), format: JSONFormat(), coversFolder: folder.path("covers")), albums)
        var stores = [try await Self.library(SQLiteStorage(file: folder.path("library.sqlite")), albums)]
        if TestServer.enabled { stores.append(try await Self.library(try PostgresStorage(url: try await TestServer.freshDatabase()), albums)) }
        for library in [held] + stores { _ = try await library.remove([.position(10), .position(2_000)]) }
        for text in ["seventh", "rare", "title:seventh artist:common"] {
            let query = try AlbumQuery(parsing: text)
            let expected = try await held.listed(matching: query)
            for store in stores {
                #expect(try await store.listed(matching: query).map(\.position) == expected.map(\.position), "'\(text)'")
                let page = try await store.page(matching: query, offset: 50, limit: 20)
                #expect(page.albums.map(\.listed.position) == expected.dropFirst(50).prefix(20).map(\.position), "'\(text)'")
            }
        }
    }

    /// A listing of a search that many albums match (`list label:warp`) comes from the store in
    /// several runs, whose covers are looked up while it reads on, and places them by reading
    /// every key at once: albums, positions and cover states (stored, missing, none) are those
    /// the held albums give, in SQLite and, when a server is at hand, PostgreSQL — also once
    /// changes have moved rows out of the order the engine reads them in (PostgreSQL rewrites an
    /// updated row at the end of its table).
    @Test func aListingOfManyMatchesReadInRunsGivesWhatTheHeldAlbumsGive() async throws {
        let folder = try TemporaryFolder("searched-runs")
        defer { folder.remove() }
        var storages: [any StorageBackend] = [
            FileStorage(file: folder.path("library.json"), format: JSONFormat(), coversFolder: folder.path("covers")),
            SQLiteStorage(file: folder.path("library.sqlite")),
        ]
        if TestServer.enabled { storages.append(try PostgresStorage(url: try await TestServer.freshDatabase())) }
        let absent = CoverKey(sha256: String(repeating: "e", count: 64), fileExtension: "jpg")
        var libraries: [Library] = []
        for storage in storages {
            try await storage.create()
            let stored = try await storage.covers.put(Data([0x89, 0x50, 0x4E, 0x47, 7]), fileExtension: "png")
            let albums = try (0..<12_000).map { index in
                var details = AlbumDetails()
                details[.label] = ["Warp", "WÁRP Records", "Warp Records", "Ninja Tune", "Ninja Tune"][index % 5]
                return try Album(
                    id: AlbumID("id-\(index)"), title: "Album \(index)", artist: "Artist \(index % 7)",
                    coverUrl: [stored.bundlePath, absent.bundlePath, nil][index % 3], details: details)
            }
            try await storage.withWriter { writer, _ in try await writer.save(LibrarySnapshot(albums: albums), change: .replaceAll()) }
            let library = try await Library.open(storage, hub: NotificationHub())
            _ = try await library.update((0..<40).map { AlbumID("id-\($0 * 3)") }, AlbumPatch(title: "Renamed"))
            _ = try await library.remove([.position(5)])
            libraries.append(library)
        }
        for text in ["label:warp", "label:wárp", "label:records ^artist:3"] {
            let query = try AlbumQuery(parsing: text)
            let expected = try await libraries[0].listed(matching: query)
            #expect(expected.count > 4_096, "'\(text)' matches \(expected.count) albums: too few for several runs")
            for library in libraries.dropFirst() {
                var listed: [ListedAlbum] = []
                for try await page in library.listedPages(matching: query, details: []) { listed += page }
                #expect(listed.map(\.position) == expected.map(\.position), "'\(text)'")
                #expect(listed.map(\.album.id) == expected.map(\.album.id), "'\(text)'")
                #expect(listed.map(\.album.title) == expected.map(\.album.title), "'\(text)'")
                #expect(listed.map(\.cover) == expected.map(\.cover), "'\(text)'")
            }
        }
    }

    /// The first page of a search a third of the library matches, in library order, is read
    /// only as far as it needs: its albums, positions and current album are those the held
    /// albums give, and its total an estimate (`totalIsExact` false) close to the count; a page
    /// whose reading reaches the last match, or a sorted one, counts every match.
    @Test func theFirstPageOfABroadSearchReadsOnlyAsFarAsItNeeds() async throws {
        let folder = try TemporaryFolder("searched-first")
        defer { folder.remove() }
        let albums = try (0..<3_000).map { index in
            try Album(
                id: AlbumID("id-\(index)"), title: index % 3 == 0 ? "Moon \(index)" : "Sun \(index)",
                artist: index % 2 == 0 ? "Even" : "Odd", year: String(1960 + index % 40))
        }
        let held = try await Self.library(FileStorage(file: folder.path("library.json"), format: JSONFormat(), coversFolder: folder.path("covers")), albums)
        var stores = [try await Self.library(SQLiteStorage(file: folder.path("library.sqlite")), albums)]
        if TestServer.enabled { stores.append(try await Self.library(try PostgresStorage(url: try await TestServer.freshDatabase()), albums)) }
        // One current album early in the library, where the page's reading passes it, one
        // near its end, where it does not (it is read and checked on its own).
        for current in [AlbumReference.position(31), .position(2_998)] {
            for library in [held] + stores { try await library.select(current) }
            for (text, count) in [("moon", 1_000), ("title:moon artist:even year:1960..1989", 375)] {
                let query = try AlbumQuery(parsing: text)
                let first = try await held.page(matching: query, offset: 0, limit: 20)
                #expect(first.total == count)
                let last = try await held.page(matching: query, offset: count - 10, limit: 20)
                let sorted = try await held.page(matching: query, order: try AlbumSort(parsing: ["year"]), offset: 0, limit: 20)
                for store in stores {
                    let page = try await store.page(matching: query, offset: 0, limit: 20)
                    #expect(page.albums.map(\.listed) == first.albums.map(\.listed), "'\(text)'")
                    #expect(page.currentPosition == first.currentPosition, "'\(text)' with \(current) current")
                    #expect(!page.totalIsExact, "'\(text)': the first page counted every match")
                    #expect(page.total > 20 && abs(page.total - count) <= count / 10, "'\(text)': estimated \(page.total) of \(count)")

                    let end = try await store.page(matching: query, offset: count - 10, limit: 20)
                    #expect(end.albums.map(\.listed) == last.albums.map(\.listed), "'\(text)' at its end")
                    #expect(end.totalIsExact && end.total == count, "'\(text)' at its end: \(end.total)")
                    #expect(end.currentPosition == last.currentPosition, "'\(text)' at its end with \(current) current")

                    let bySort = try await store.page(matching: query, order: try AlbumSort(parsing: ["year"]), offset: 0, limit: 20)
                    #expect(bySort.albums.map(\.listed) == sorted.albums.map(\.listed), "'\(text)' by year")
                    #expect(bySort.totalIsExact && bySort.total == count, "'\(text)' by year: \(bySort.total)")
                }
            }
        }
    }

    /// Every query, in every order, as a listing and as pages at several offsets.
    private static func expectSame(_ held: Library, _ stores: [Library], _ when: String) async throws {
        for text in queries {
            let query = try AlbumQuery(parsing: text)
            let expected = try await held.listed(matching: query)
            for store in stores {
                #expect(try await store.listed(matching: query) == expected, "'\(text)' \(when)")
            }
            for sort in orders {
                let order = try AlbumSort(parsing: [sort])
                for offset in [0, 2, 9] {
                    let want = try await held.page(matching: query, order: order, offset: offset, limit: 4)
                    for store in stores {
                        let page = try await store.page(matching: query, order: order, offset: offset, limit: 4)
                        #expect(page.albums.map(\.listed) == want.albums.map(\.listed), "'\(text)' by '\(sort)' from \(offset) \(when)")
                        #expect(page.total == want.total, "'\(text)' by '\(sort)' \(when)")
                        #expect(page.currentPosition == want.currentPosition, "'\(text)' by '\(sort)' \(when)")
                    }
                }
            }
        }
    }

    /// ``albums()`` in a JSON library (held in memory), an SQLite one and a PostgreSQL one.
    private static func libraries(in folder: TemporaryFolder) async throws -> (held: Library, sqlite: Library, postgres: Library) {
        let albums = try Self.albums()
        return (
            try await library(FileStorage(file: folder.path("library.json"), format: JSONFormat(), coversFolder: folder.path("covers")), albums),
            try await library(SQLiteStorage(file: folder.path("library.sqlite")), albums),
            try await library(try PostgresStorage(url: try await TestServer.freshDatabase()), albums))
    }

    /// A new library in `storage` holding `albums`.
    private static func library(_ storage: any StorageBackend, _ albums: [Album]) async throws -> Library {
        try await storage.create(holding: albums)
        return try await Library.open(storage, hub: NotificationHub())
    }
}
