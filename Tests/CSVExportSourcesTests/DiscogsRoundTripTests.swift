import AlbumKitTesting
import Foundation
import Testing

/// SPEC 12: a Discogs collection export, imported and exported again with `--format discogs`,
/// has the same header and the same value in every column of every row — for the real exports
/// of `Tests/Fixtures/real/discogs` and one Python's `csv` writes with every column filled and
/// two custom columns of the user's. (White
/// space around a value is the one thing not kept: SPEC 1 trims every text, so a real export's
/// `Mr. Isaacs ` comes back as `Mr. Isaacs`.)
@Suite struct DiscogsRoundTripTests {
    /// The rows of a CSV file as Python's `csv` reads them, each padded to the header's width
    /// (a row of a real export may lack its trailing empty fields).
    private func rows(_ file: URL) throws -> [[String]] {
        let script = """
            import csv, json, sys
            rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8-sig')))
            width = len(rows[0])
            print(json.dumps([[field.strip() for field in row] + [''] * (width - len(row)) for row in rows]))
            """
        let run = try runProgram("/usr/bin/env", ["python3", "-c", script, file.path])
        try #require(run.status == 0, "\(run.output)")
        return try JSONDecoder().decode([[String]].self, from: Data(run.output.utf8))
    }

    private static func inputs() -> [URL] { RealFixture.all("discogs").map(\.url) }

    @Test(arguments: inputs() + [nil])
    func importedAndExportedAgainEveryColumnIsTheSame(_ real: URL?) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let input: URL
        if let real {
            input = real
        } else {
            input = cli.folder.appendingPathComponent("generated.csv")
            var first = ExportFixture.discogs(artist: "Björk (2)", title: "  Homogenic  ", released: "1997-09-22", id: "1001")
            first[5] = "4"
            var second = ExportFixture.discogs(artist: "Various", title: "Partial", released: "1979-06-00", id: "1002")
            second[5] = ""
            // Two custom collection fields of the user's, which Discogs writes after its own.
            let third = ExportFixture.discogs(artist: "X", title: "No Date", released: "0", id: "1003")
            try ExportFixture.write(
                header: ExportFixture.discogsHeader + ["Purchase Price", "Where / When"],
                rows: [first + ["12 EUR", "Rough Trade, 2019"], second + ["", ""], third + ["", "a fair"]], to: input)
        }
        #expect(try cli.run("init").status == 0)
        let imported = try cli.run("import", input.path)
        #expect(imported.status == 0, "\(imported.error)")
        let out = cli.folder.appendingPathComponent("again.csv")
        let exported = try cli.run("export", out.path, "--format", "discogs")
        #expect(exported.status == 0, "\(exported.error)")
        let before = try rows(input)
        let after = try rows(out)
        #expect(after.first == before.first, "the same header, custom columns included")
        #expect(after == before, "\(zip(before, after).filter { $0 != $1 })")
    }

    /// The whole album a Discogs row gives (SPEC 9), shown by `show --json`.
    @Test func aRowFillsTheWholeAlbum() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let input = cli.folder.appendingPathComponent("collection.csv")
        var row = ExportFixture.discogs(artist: "Björk (2)", title: "Homogenic", released: "1997-09-22", id: "1001")
        row[5] = "4"
        try ExportFixture.write(header: ExportFixture.discogsHeader + ["Purchase Price"], rows: [row + ["12 EUR"]], to: input)
        #expect(try cli.run("init").status == 0)
        #expect(try cli.run("import", input.path).status == 0)
        let shown = try cli.run("show", "1", "--json")
        let album = try #require((try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])?["album"] as? [String: Any])
        #expect(album["id"] as? String == "discogs:1001" && album["artist"] as? String == "Björk" && album["year"] as? String == "1997")
        #expect(album["released"] as? String == "1997-09-22" && album["label"] as? String == "Some Label, Ltd." && album["catalogNumber"] as? String == "CAT-1001")
        #expect(album["format"] as? String == "LP, Album" && album["rating"] as? Double == 4 && album["added"] as? String == "2021-03-04T10:11:12Z")
        #expect(album["notes"] as? String == "bought at \"the\" fair,\nsecond line")
        #expect(album["ids"] as? [String: String] == ["discogs": "1001"])
        #expect(
            album["fields"] as? [String: String]
                == ["discogs.folder": "Uncategorized", "discogs.mediaCondition": "Mint (M)", "discogs.sleeveCondition": "Near Mint (NM or M-)",
                    "discogs.artist": "Björk (2)", "discogs.purchasePrice": "12 EUR", "discogs.customColumns": #"["Purchase Price"]"#], "\(album)")
    }
}

/// The whole album a RateYourMusic row gives (SPEC 9), shown by `show --json`.
@Suite struct RYMWholeAlbumTests {
    @Test func aRowFillsTheWholeAlbum() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let input = cli.folder.appendingPathComponent("export.csv")
        var row = ExportFixture.rym(id: "2634", first: "", last: "Modest Mouse", title: "The Moon &amp; Antarctica", date: "2000-06-13")
        row[7] = "9"
        row[9] = "2020-01-05"
        row[11] = "Big &quot;sound&quot;,\nsmall &lt;voice&gt;"
        try ExportFixture.write(header: ExportFixture.rymHeader, rows: [row], to: input)
        #expect(try cli.run("init").status == 0)
        let imported = try cli.run("import", input.path)
        #expect(imported.status == 0, "\(imported.error)")
        let shown = try cli.run("show", "1", "--json")
        let album = try #require((try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])?["album"] as? [String: Any])
        #expect(album["id"] as? String == "rym:2634" && album["title"] as? String == "The Moon & Antarctica" && album["year"] as? String == "2000")
        #expect(album["released"] as? String == "2000-06-13" && album["rating"] as? Double == 4.5 && album["format"] as? String == "CD")
        #expect(album["notes"] as? String == "Big \"sound\",\nsmall <voice>")
        #expect(album["ids"] as? [String: String] == ["rym": "2634"])
        #expect(album["fields"] as? [String: String] == ["rym.ownership": "o", "rym.purchaseDate": "2020-01-05"], "\(album)")
    }
}
