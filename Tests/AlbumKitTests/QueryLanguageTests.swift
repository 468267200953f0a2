import AlbumKit
import Testing

/// The query language, sort keys and templates as pure values over a small known library.
@Suite struct QueryLanguageTests {
    /// Ten albums with every kind of value a query looks at.
    static let snapshot: LibrarySnapshot = {
        let rows: [(String, String, String, String, String)] = [
            ("low-1977", "Low", "David Bowie", "Art rock", "1977"),
            ("heroes-77", "\"Heroes\"", "David Bowie", "Art rock", "1977"),
            ("station-76", "Station to Station", "David Bowie", "Rock", "1976"),
            ("debut-93", "Début", "Björk", "Pop", "1993"),
            ("yellow-68", "Yellow Submarine", "The Beatles", "Rock", "1969"),
            ("live-75", "Live: 1975", "Bob Dylan", "", "1975"),
            ("untitled", "Untitled", "Anonymous", "", ""),
            ("kanji-1", "東京", "椎名林檎", "J-Pop", "2000"),
            ("sun-87", "...Nothing Like the Sun", "Sting", "Pop", "1987"),
            ("sun-97", "Staring at the Sun", "U2", "Rock", "1997"),
        ]
        let albums = rows.map { try! Album(id: AlbumID($0.0), title: $0.1, artist: $0.2, genre: $0.3, year: $0.4) }
        return LibrarySnapshot(albums: albums)
    }()

    /// Every album listed with a cover state by position: 1–3 stored, 4 missing, 5 failed, the rest none.
    static let listed: [ListedAlbum] = snapshot.albums.enumerated().map { index, album in
        ListedAlbum(position: index + 1, album: album, cover: [.stored, .stored, .stored, .missing, .failed][safe: index] ?? .none)
    }

    private func ids(_ terms: [String]) throws -> [String] {
        let query = try AlbumQuery(terms: terms)
        return Self.listed.filter(query.matches).map(\.album.id.rawValue)
    }

    @Test(arguments: [
        (["artist:bowie"], ["low-1977", "heroes-77", "station-76"]),
        (["ARTIST:BOWIE"], ["low-1977", "heroes-77", "station-76"]),
        (["title:low"], ["low-1977", "yellow-68"]),
        (["title:\"station to station\""], ["station-76"]),
        (["year:1977"], ["low-1977", "heroes-77"]),
        (["year:1970..1979"], ["low-1977", "heroes-77", "station-76", "live-75"]),
        (["year:1990.."], ["debut-93", "kanji-1", "sun-97"]),
        (["year:..1969"], ["yellow-68"]),
        (["genre:rock"], ["low-1977", "heroes-77", "station-76", "yellow-68", "sun-97"]),
        (["genre:"], ["live-75", "untitled"]),
        (["^genre:"], ["low-1977", "heroes-77", "station-76", "debut-93", "yellow-68", "kanji-1", "sun-87", "sun-97"]),
        (["sun"], ["sun-87", "sun-97"]),
        (["bjork"], ["debut-93"]),
        (["1977"], ["low-1977", "heroes-77"]),
        (["東京"], ["kanji-1"]),
        (["\"Live: 1975\""], ["live-75"]),
        (["cover:stored"], ["low-1977", "heroes-77", "station-76"]),
        (["cover:missing"], ["debut-93"]),
        (["cover:failed"], ["yellow-68"]),
        (["cover:none"], ["live-75", "untitled", "kanji-1", "sun-87", "sun-97"]),
        (["^cover:none", "^cover:stored"], ["debut-93", "yellow-68"]),
        (["artist:bowie", "^year:1977"], ["station-76"]),
        (["position:2..3"], ["heroes-77", "station-76"]),
        (["id:sun-"], ["sun-87", "sun-97"]),
        ([], ["low-1977", "heroes-77", "station-76", "debut-93", "yellow-68", "live-75", "untitled", "kanji-1", "sun-87", "sun-97"]),
    ])
    func termsChooseAlbums(_ terms: [String], _ expected: [String]) throws {
        #expect(try ids(terms) == expected)
    }

    @Test func aLineSplitsAtSpacesOutsideQuotesAndKeepsApostrophes() throws {
        let query = try AlbumQuery(parsing: #"artist:"david bowie"  ^title:"station to station" It's"#)
        #expect(query.description == #"artist:"david bowie" ^title:"station to station" It's"#)
        #expect(Self.listed.filter(try AlbumQuery(parsing: #"artist:"david bowie" ^title:"station to station""#).matches).count == 2)
        #expect(throws: AlbumKitError.self) { try AlbumQuery(parsing: #"title:"unclosed"#) }
    }

    @Test(arguments: [
        (["artst:bowie"], "unknown field 'artst' in query (did you mean 'artist'?"),
        (["Live: 1975"], "unknown field 'Live' in query (fields: position, id, title, artist, genre, year, coverUrl, released,"),
        (["year:197x"], "bad year '197x' in query term 'year:197x'"),
        (["year:1970..1975..1979"], "bad year '1970..1975..1979'"),
        (["year:.."], "bad year '..'"),
        (["cover:lost"], "unknown cover state 'lost' in query term 'cover:lost' (use stored, missing, failed or none)"),
    ])
    func badTermsAreUsageErrorsThatSaySo(_ terms: [String], _ message: String) throws {
        let error = #expect(throws: AlbumKitError.self) { try AlbumQuery(terms: terms) }
        #expect(error?.kind == .invalidQuery)
        #expect(error?.description.hasPrefix(message) == true, "\(error?.description ?? "")")
    }

    @Test func sortKeysOrderWithTiesInLibraryOrder() throws {
        let byYear = try AlbumSort(parsing: ["year-"]).sorted(Self.listed).map(\.position)
        #expect(byYear == [8, 10, 4, 9, 1, 2, 3, 6, 5, 7], "newest first, the album without a year last, 1977 ties in library order")
        let byArtistThenTitle = try AlbumSort(parsing: ["artist,title-"]).sorted(Self.listed).map(\.album.title)
        #expect(byArtistThenTitle.prefix(6) == ["Untitled", "Début", "Live: 1975", "Station to Station", "Low", "\"Heroes\""])
        let error = #expect(throws: AlbumKitError.self) { try AlbumSort(parsing: ["yaer"]) }
        #expect(error?.description.hasPrefix("unknown sort field 'yaer' (did you mean 'year'?") == true)
    }

    @Test func templatesFillEveryFieldAndRefuseUnknownOnes() throws {
        let template = try AlbumTemplate(parsing: "$position|$id|$title|$artist|$genre|$year|$coverUrl|$cover|${year}s $$5")
        #expect(template.render(Self.listed[0]) == "1|low-1977|Low|David Bowie|Art rock|1977||stored|1977s $5")
        let unknown = #expect(throws: AlbumKitError.self) { try AlbumTemplate(parsing: "$yr $artist") }
        #expect(unknown?.description.hasPrefix("unknown field '$yr' in the template (did you mean '$year'?") == true)
        #expect(throws: AlbumKitError.self) { try AlbumTemplate(parsing: "cost: $ 5") }
    }

    @Test func referencesByPositionIDPrefixAndQuery() throws {
        let snapshot = Self.snapshot
        #expect(try AlbumReference("3").index(in: snapshot) == 2)
        #expect(try AlbumReference("heroes-77").index(in: snapshot) == 1)
        #expect(try AlbumReference("statio").index(in: snapshot) == 2, "a unique prefix of six characters")
        #expect(try AlbumReference(words: ["artist:sting"]).index(in: snapshot) == 8)
        #expect(try AlbumReference(words: ["artist:bowie", "year:1976"]).index(in: snapshot) == 2)
        let ambiguous = #expect(throws: AlbumKitError.self) { try AlbumReference("sun").index(in: snapshot) }
        #expect(ambiguous?.kind == .ambiguousAlbum)
        #expect(ambiguous?.description == "'sun' matches 2 albums: 9 '...Nothing Like the Sun' [sun-87], 10 'Staring at the Sun' [sun-97]; name one by its position, id or a narrower query")
        let none = #expect(throws: AlbumKitError.self) { try AlbumReference("zzzzzz").index(in: snapshot) }
        #expect(none?.kind == .noSuchAlbum)
    }

    @Test func aSelectionIsReferencesOrOneQueryNeverBoth() throws {
        let snapshot = Self.snapshot
        let state = { (_: Album) in CoverState.none }
        let named = try AlbumSelection(words: ["3", "heroes-77", "1"], in: snapshot, coverState: state)
        #expect(named.albums.map(\.position) == [1, 2, 3] && !named.byQuery)
        let queried = try AlbumSelection(words: ["artist:bowie", "^year:1976"], in: snapshot, coverState: state)
        #expect(queried.albums.map(\.position) == [1, 2] && queried.byQuery)
        let mixed = #expect(throws: AlbumKitError.self) { try AlbumSelection(words: ["3", "bowie"], in: snapshot, coverState: state) }
        #expect(mixed?.description.hasPrefix("'bowie' is not a position or an id") == true)
        let empty = #expect(throws: AlbumKitError.self) { try AlbumSelection(words: ["artist:nobody"], in: snapshot, coverState: state) }
        #expect(empty?.kind == .noSuchAlbum)
    }

    @Test func spellingSuggestsOnlyCloseNames() {
        #expect(Spelling.closest(to: "lst", among: ["list", "show", "last"]) == "list")
        #expect(Spelling.closest(to: "imprt", among: ["import", "export"]) == "import")
        #expect(Spelling.closest(to: "zebra", among: ["list", "show"]) == nil)
        // One helper for every name (commands, fields, configuration keys): a name cut short is one letter away.
        #expect(Spelling.closest(to: "storage.lockTimeout", among: ["storage.lockTimeoutSeconds", "storage.backend"]) == "storage.lockTimeoutSeconds")
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
