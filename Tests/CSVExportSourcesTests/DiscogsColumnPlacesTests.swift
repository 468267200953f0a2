import AlbumKit
import AlbumKitTesting
import DiscogsSource
import Foundation
import RYMSource
import Testing

/// The Discogs import reads a row's columns by their places in the file's own header, found
/// once a file (`CSVColumnPlaces`): a header in another order (a spreadsheet that moved
/// columns), one without an optional column, or one with a column of the user's among
/// Discogs's own gives the same whole albums (SPEC 9), the unknown column in `fields`.
@Suite struct DiscogsColumnPlacesTests {
    /// Two rows, by column name, whose every column differs from its neighbours': a value read
    /// from a wrong place shows.
    private static let rows: [[String: String]] = {
        var first = ExportFixture.discogs(artist: "Björk (2)", title: "Homogenic", released: "1997-09-22", id: "1001")
        first[5] = "4"
        var second = ExportFixture.discogs(artist: "Various", title: "Partial", released: "1979-06-00", id: "1002")
        second[0...5] = ["OTHER 7", "Various", "Partial", "Rough Trade", "CD, Comp", "2"]
        second[8...12] = ["Jazz", "2019-12-31 23:59:58", "Good (G)", "Fair (F)", "no notes"]
        return [first, second].map { Dictionary(uniqueKeysWithValues: zip(ExportFixture.discogsHeader, $0)) }
    }()

    /// `rows` under `header`: each row's value of each column named there ("" for one of the
    /// user's it does not have).
    private func albums(header: [String], extra: [String: [String]] = [:]) async throws -> [AlbumRecord] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("collection.csv")
        let lines = Self.rows.enumerated().map { number, row in header.map { row[$0] ?? extra[$0]?[number] ?? "" } }
        try ExportFixture.write(header: header, rows: lines, to: file)
        return try await readAlbums(DiscogsSource(), file)
    }

    /// The whole albums `rows` give, with the columns `without` left out and `fields` added.
    private func expected(without: Set<String> = [], fields: [[String: String]] = [[:], [:]]) -> [AlbumRecord] {
        let first = Self.album(
            "1001", title: "Homogenic", artist: "Björk", year: "1997", rating: 4,
            named: [
                .released: "1997-09-22", .label: "Some Label, Ltd.", .catalogNumber: "CAT-1001", .format: "LP, Album",
                .added: "2021-03-04T10:11:12Z", .notes: "bought at \"the\" fair,\nsecond line",
            ],
            fields: [
                "discogs.folder": "Uncategorized", "discogs.mediaCondition": "Mint (M)", "discogs.sleeveCondition": "Near Mint (NM or M-)",
                "discogs.artist": "Björk (2)",
            ])
        let second = Self.album(
            "1002", title: "Partial", artist: "Various", year: "1979", rating: 2,
            named: [
                .released: "1979-06", .label: "Rough Trade", .catalogNumber: "OTHER 7", .format: "CD, Comp", .added: "2019-12-31T23:59:58Z",
                .notes: "no notes",
            ],
            fields: ["discogs.folder": "Jazz", "discogs.mediaCondition": "Good (G)", "discogs.sleeveCondition": "Fair (F)", "discogs.released": "1979-06-00"])
        var albums = [first, second]
        for index in albums.indices {
            if without.contains("Label") { albums[index][.label] = nil }
            if without.contains("Rating") { albums[index].rating = nil }
            if without.contains("Collection Media Condition") { albums[index].fields["discogs.mediaCondition"] = nil }
            albums[index].fields.merge(fields[index]) { $1 }
        }
        return albums
    }

    /// The album of Discogs release `release` with these fields.
    private static func album(
        _ release: String, title: String, artist: String, year: String, rating: Double, named: [AlbumField: String], fields: [String: String]
    ) -> AlbumRecord {
        var album = AlbumRecord(id: AlbumID("discogs:\(release)"), title: title, artist: artist, year: year)
        for (field, value) in named { album[field] = value }
        album.rating = rating
        album.ids = ["discogs": release]
        album.fields = fields
        return album
    }

    @Test func theStandardHeaderGivesTheWholeAlbums() async throws {
        #expect(try await albums(header: ExportFixture.discogsHeader) == expected())
    }

    @Test(arguments: [
        Array(ExportFixture.discogsHeader.reversed()),
        ["release_id", "Title", "Artist", "Released", "Collection Notes", "Format", "Catalog#", "Date Added", "Label", "Rating",
         "Collection Sleeve Condition", "CollectionFolder", "Collection Media Condition"],
    ])
    func aHeaderInAnotherOrderGivesTheSameAlbums(header: [String]) async throws {
        let read = try await albums(header: header)
        #expect(read == expected(), "\(read)")
    }

    /// A header in another order is still known by its content (`import` without `--format`),
    /// and one that lacks a column of Discogs's own is not taken for Discogs's.
    @Test func aHeaderInAnotherOrderIsRecognised() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("collection.csv")
        let moved = ["release_id", "Title", "Artist", "Released", "Collection Notes", "Format", "Catalog#", "Date Added", "Label", "Rating"]
        try ExportFixture.write(header: moved, rows: [], to: file)
        #expect(DiscogsSource().match(try SourceInput(at: file)) == .specific)
        #expect(RYMSource().match(try SourceInput(at: file)) == .none)
        try ExportFixture.write(header: moved.filter { $0 != "Catalog#" }, rows: [], to: file)
        #expect(DiscogsSource().match(try SourceInput(at: file)) == .none)
    }

    @Test(arguments: [["Label"], ["Collection Media Condition"], ["Label", "Rating", "Collection Media Condition"]])
    func aHeaderWithoutAnOptionalColumnGivesTheAlbumsWithoutIt(missing: [String]) async throws {
        let read = try await albums(header: ExportFixture.discogsHeader.filter { !missing.contains($0) })
        #expect(read == expected(without: Set(missing)), "\(read)")
    }

    /// SPEC 9: a column of the user's goes to `fields` under `discogs.`, its name kept in
    /// `discogs.customColumns` in the file's order — among Discogs's own columns too.
    @Test func anUnknownColumnAmongDiscogssOwnGoesToFields() async throws {
        var header = ExportFixture.discogsHeader
        header.insert("Purchase Price", at: 3)
        header.insert("Where", at: 0)
        header.append("Signed")
        let extra = ["Purchase Price": ["12 EUR", ""], "Where": ["Rough Trade, 2019", "a fair"], "Signed": ["", "yes"]]
        let read = try await albums(header: header, extra: extra)
        let custom = #"["Where","Purchase Price","Signed"]"#
        #expect(read == expected(fields: [
            ["discogs.purchasePrice": "12 EUR", "discogs.where": "Rough Trade, 2019", "discogs.customColumns": custom],
            ["discogs.where": "a fair", "discogs.signed": "yes", "discogs.customColumns": custom],
        ]), "\(read)")
    }

    /// Through the binary: `import --format discogs` of a file whose header is in another
    /// order, lacks `Label` and has a column of the user's (not recognised by its content: it
    /// lacks a column of Discogs's signature), shown by `show --json`.
    @Test func importByTheBinaryReadsTheFilesOwnPlaces() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let input = cli.folder.appendingPathComponent("moved.csv")
        let header = ["Title", "Purchase Price", "release_id", "Artist", "Rating", "Released", "Format", "Catalog#", "Collection Notes", "Date Added", "CollectionFolder"]
        let row = Self.rows[0].merging(["Purchase Price": "12 EUR"]) { $1 }
        try ExportFixture.write(header: header, rows: [header.map { row[$0] ?? "" }], to: input)
        #expect(try cli.run("init").status == 0)
        let imported = try cli.run("import", input.path, "--format", "discogs")
        #expect(imported.status == 0, "\(imported.error)")
        let shown = try cli.run("show", "1", "--json")
        let album = try #require((try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])?["album"] as? [String: Any])
        #expect(album["id"] as? String == "discogs:1001" && album["title"] as? String == "Homogenic" && album["artist"] as? String == "Björk")
        #expect(album["year"] as? String == "1997" && album["released"] as? String == "1997-09-22" && album["label"] == nil)
        #expect(album["catalogNumber"] as? String == "CAT-1001" && album["format"] as? String == "LP, Album" && album["rating"] as? Double == 4)
        #expect(album["added"] as? String == "2021-03-04T10:11:12Z" && album["notes"] as? String == "bought at \"the\" fair,\nsecond line")
        #expect(album["ids"] as? [String: String] == ["discogs": "1001"])
        #expect(
            album["fields"] as? [String: String]
                == ["discogs.folder": "Uncategorized", "discogs.artist": "Björk (2)", "discogs.purchasePrice": "12 EUR",
                    "discogs.customColumns": #"["Purchase Price"]"#], "\(album)")
    }

    /// A column whose name an earlier column has is not read (a row's value is found by the
    /// name's first column), and the import says so in a `warning:` line naming the file, the
    /// line and the column, rather than drop its values without a word (SPEC 9).
    @Test func aSecondColumnOfOneNameIsSaidNotToBeRead() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let input = cli.folder.appendingPathComponent("twice.csv")
        let header = ExportFixture.discogsHeader + ["Where", "Where"]
        let row = Self.rows[0].merging(["Where": "shelf 3"]) { $1 }
        try ExportFixture.write(header: header, rows: [header.map { row[$0] ?? "" }.dropLast() + ["box 9"]], to: input)
        #expect(try cli.run("init").status == 0)
        let imported = try cli.run("import", input.path)
        #expect(imported.status == 0, "\(imported.error)")
        let warnings = imported.error.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings == ["warning: \(input.path) line 1: column \(header.count) is a second 'Where'; only the first is read, so its values are not imported"], "\(imported.error)")
        let shown = try cli.run("show", "1", "--json")
        let album = try #require((try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])?["album"] as? [String: Any])
        #expect((album["fields"] as? [String: String])?["discogs.where"] == "shelf 3", "\(album)")
    }
}
