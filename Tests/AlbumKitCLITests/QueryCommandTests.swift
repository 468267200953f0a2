import AlbumKitTesting
import Foundation
import Testing

/// `list` with queries, sort keys and templates, `stats`, and the aliases, end to end on
/// ``KnownLibrary``.
@Suite struct QueryCommandTests {
    @Test(arguments: [
        (["artist:bowie"], [1, 6, 7, 8]),
        (["artist:BOWIE"], [1, 6, 7, 8]),
        (["title:\"low\""], [6]),
        (["title:\"station to station\""], [8]),
        (["year:1977"], [6, 7]),
        (["year:1970..1979"], [6, 7, 8]),
        (["year:2000.."], [1, 2, 5]),
        (["year:..1977"], [6, 7, 8]),
        (["genre:rock"], [1, 4, 6, 7]),
        (["genre:"], [8]),
        (["year:"], [10]),
        (["sun"], [3, 4]),
        (["bjork"], [9]),
        (["椎名"], [10]),
        (["cover:stored"], [1, 2, 3, 4, 5]),
        (["cover:missing"], [6]),
        (["cover:failed"], [8]),
        (["cover:none"], [7, 9, 10]),
        (["^cover:stored"], [6, 7, 8, 9, 10]),
        (["artist:bowie", "^year:1977"], [1, 8]),
        (["artist:bowie", "^cover:none", "year:..2000"], [6, 8]),
        (["position:9.."], [9, 10]),
    ])
    func eachQueryFormChoosesItsAlbums(_ terms: [String], _ expected: [Int]) throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        #expect(try KnownLibrary.positions(cli, terms) == expected)
        let json = try cli.run(["list", "--json"] + terms)
        let albums = (try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])?["albums"] as? [[String: Any]]
        #expect(albums?.compactMap { $0["position"] as? Int } == expected, "--json lists the same albums with their library positions")
    }

    @Test(arguments: [
        (["--sort", "year-"], [2, 1, 5, 4, 9, 3, 6, 7, 8, 10]),
        (["--sort", "year"], [10, 8, 6, 7, 3, 9, 4, 5, 1, 2]),
        (["--sort", "artist", "--sort", "title-"], [9, 8, 6, 1, 7, 5, 2, 3, 4, 10]),
        (["--sort", "genre,year-"], [8, 6, 7, 10, 2, 5, 9, 3, 1, 4]),
        (["--sort", "cover", "artist:bowie"], [8, 6, 7, 1]),
    ])
    func sortOrders(_ arguments: [String], _ expected: [Int]) throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        #expect(try KnownLibrary.positions(cli, arguments) == expected)
    }

    @Test func templatesShowEveryField() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        let line = try cli.run("list", "title:low", "--format", "$position|$id|$title|$artist|$genre|$year|$coverUrl|$cover|${year}s $$")
        #expect(line.output == "6|album-low-1977|Low|David Bowie|Art rock|1977|https://covers.invalid/low.png|missing|1977s $\n")
        let pretty = try cli.run("ls", "artist:bowie", "--sort", "year", "--format", "$year $artist - $title")
        #expect(pretty.output == "1976 David Bowie - Station to Station\n1977 David Bowie - Low\n1977 David Bowie - \"Heroes\"\n2002 David Bowie - Best of Bowie\n")
    }

    @Test(arguments: [
        (["list", "artst:bowie"], "error: unknown field 'artst' in query (did you mean 'artist'?"),
        (["list", "year:19x0"], "error: bad year '19x0' in query term 'year:19x0'"),
        (["list", "cover:lost"], "error: unknown cover state 'lost'"),
        (["list", "--sort", "yaer"], "error: unknown sort field 'yaer' (did you mean 'year'?"),
        (["list", "--format", "$titel"], "error: unknown field '$titel' in the template (did you mean '$title'?"),
        (["stats", "gnre:pop"], "error: unknown field 'gnre' in query (did you mean 'genre'?"),
        (["remove", "3", "bowie"], "error: 'bowie' is not a position or an id"),
    ])
    func badQueriesAreOneLineUsageErrors(_ arguments: [String], _ message: String) throws {
        try KnownLibrary.expectFailure(arguments, status: 2, message: message)
    }

    @Test func statsCountsAKnownLibrary() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        let folder = cli.libraryFolder
        let covers = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("covers").path)
        let coverBytes = try covers.reduce(0) { sum, name in
            sum + (try Data(contentsOf: folder.appendingPathComponent("covers/\(name)")).count)
        }
        let result = try cli.run("stats", "--json")
        #expect(result.status == 0, "\(result.error)")
        let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] ?? [:]
        let figures = report["statistics"] as? [String: Any] ?? [:]
        #expect(figures["albums"] as? Int == 10)
        #expect(figures["artists"] as? Int == 7)
        #expect(figures["genres"] as? Int == 4)
        #expect(figures["firstYear"] as? Int == 1976 && figures["lastYear"] as? Int == 2003)
        #expect(figures["withoutYear"] as? Int == 1)
        #expect(figures["stored"] as? Int == 5 && figures["missing"] as? Int == 1)
        #expect(figures["failed"] as? Int == 1 && figures["noCover"] as? Int == 3)
        #expect(covers.count == 5 && figures["storedCoverBytes"] as? Int == coverBytes)
        #expect(report["libraryBytes"] as? Int == (try Self.bytes(under: folder)))

        let rock = try cli.run("stats", "genre:rock")
        #expect(rock.output.split(separator: "\n").map(String.init).prefix(5) == [
            "albums:   4 matching 'genre:rock'", "artists:  2", "genres:   2", "years:    1977–2002 (0 without a year)",
            "covers:   2 stored (\(Self.human(try Self.coverBytes(of: [1, 4], in: cli)))), 1 missing, 0 failed, 1 none",
        ])
    }

    @Test func aliasesRunTheirCommands() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        #expect(try cli.run("ls").output == (try cli.run("list").output))
        #expect(try cli.run("mv", "10", "--to", "1").status == 0)
        #expect(try KnownLibrary.titles(cli).first == "東京事変")
        #expect(try cli.run("rm", "1").status == 0)
        #expect(try KnownLibrary.titles(cli).count == 9)
        let more = cli.folder.appendingPathComponent("kid-a.json")
        try Data(#"[{"title": "Kid A", "artist": "Radiohead", "year": 2000}]"#.utf8).write(to: more)
        let imported = try cli.run("imp", more.path)
        #expect(imported.status == 0 && imported.output.contains("1 added"), "\(imported.error)")
        #expect(try KnownLibrary.titles(cli).last == "Kid A")
    }

    /// The bytes of the regular files under `folder`, as `find` lists them.
    static func bytes(under folder: URL) throws -> Int {
        let sizes = try runProgram("/usr/bin/find", [folder.path, "-type", "f", "-printf", "%s\\n"]).output
        return sizes.split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
    }

    /// The bytes of the stored covers of the albums at `positions`.
    static func coverBytes(of positions: [Int], in cli: CLIRunner) throws -> Int {
        try positions.reduce(0) { sum, position in
            let show = try cli.run("show", String(position), "--json")
            let album = (try JSONSerialization.jsonObject(with: Data(show.output.utf8)) as? [String: Any])?["album"] as? [String: Any]
            return sum + (try Data(contentsOf: URL(fileURLWithPath: album?["coverPath"] as? String ?? "")).count)
        }
    }

    /// Bytes as the command shows them (decimal units, three figures at most).
    static func human(_ bytes: Int) -> String {
        bytes < 1000 ? "\(bytes) B" : (bytes < 10_000 ? String(format: "%.1f kB", Double(bytes) / 1000) : "\(Int((Double(bytes) / 1000).rounded())) kB")
    }
}
