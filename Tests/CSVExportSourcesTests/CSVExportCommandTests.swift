import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// Discogs and RYM exports through the built binary: imported once, then only duplicates;
/// hostile files refused with one error line and nothing written; a row that cannot be an album
/// skipped and named, or refused with `--strict`.
@Suite struct CSVExportCommandTests {
    @Test func bothExportsImportAndASecondImportGivesOnlyDuplicates() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let discogs = cli.folder.appendingPathComponent("discogs-collection.csv")
        let rym = cli.folder.appendingPathComponent("rym-export.csv")
        try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [
            ExportFixture.discogs(artist: "Mono (2)", title: "Hymn", released: "2009", id: "1722539"),
            ExportFixture.discogs(artist: "Nirvana", title: "Nevermind", released: "0", id: "367084"),
        ], to: discogs)
        try ExportFixture.write(header: ExportFixture.rymHeader, rows: [
            ExportFixture.rym(id: "1234", first: "The", last: "Beatles", title: "Abbey Road", date: "1969"),
        ], to: rym)
        #expect(try cli.run("init").status == 0)
        #expect(try cli.run("import", "--dry-run", discogs.path, rym.path).status == 0)
        #expect(try cli.listedAlbums().isEmpty, "a dry run writes nothing")

        let first = try cli.run("import", discogs.path, rym.path)
        #expect(first.status == 0 && first.output.contains("3 added"), "\(first.output)\(first.error)")
        let albums = try cli.listedAlbums()
        #expect(albums.map { $0["id"] as? String } == ["discogs:1722539", "discogs:367084", "rym:1234"])
        #expect(albums.map { $0["artist"] as? String } == ["Mono", "Nirvana", "The Beatles"])
        #expect(albums.map { $0["year"] as? String } == ["2009", "", "1969"])

        let second = try cli.run("import", rym.path, discogs.path)
        #expect(second.status == 0 && second.output.contains("0 added, 3 skipped"), "\(second.output)")
    }

    /// A library of the starter albums, how many it holds, and where the export is written in it.
    private func starterLibrary() throws -> (cli: CLIRunner, before: Int, file: URL) {
        let cli = try CLIRunner()
        #expect(try cli.run("init", "--starter").status == 0)
        return (cli, try cli.listedAlbums().count, cli.folder.appendingPathComponent("collection.csv"))
    }

    /// A good row of a Discogs export.
    private let good = ExportFixture.discogs(artist: "A", title: "Fine", released: "1991", id: "1")

    @Test(arguments: ["garbage", "100 MB line"])
    func hostileExportsAreRefusedAndNothingIsImported(kind: String) throws {
        let (cli, before, file) = try starterLibrary()
        defer { cli.remove() }
        try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [good], to: file)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        if kind == "garbage" {
            try handle.write(contentsOf: Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) }))
        } else {
            let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<100 { try handle.write(contentsOf: chunk) }
            try handle.write(contentsOf: Data(",B,T,L,F,5,1991,2,,,,,\r\n".utf8))
        }
        try handle.close()
        let result = try cli.run("import", file.path)
        #expect(result.status != 0)
        let errors = result.errorLines
        #expect(errors.count == 1 && errors[0].contains(file.path) && (errors[0].contains("line 4") || errors[0].contains("row 2")), "the good row spans lines 2 and 3: \(result.error)")
        #expect(try cli.listedAlbums().count == before, "nothing imported")
    }

    /// A Discogs export whose header has 10 000 columns: no row can be an album (an album keeps
    /// at most 256 fields), so each is skipped and named, nothing is added, and memory stays
    /// bounded (peak resident memory measured by GNU time).
    @Test func tenThousandColumnsAreSkippedRowByRowInBoundedMemory() throws {
        let (cli, before, file) = try starterLibrary()
        defer { cli.remove() }
        let script = """
            import csv, sys
            header = sys.argv[2].split("|")
            header += ["Extra %d" % i for i in range(10000 - len(header))]
            with open(sys.argv[1], "w", newline="") as out:
                writer = csv.writer(out)
                writer.writerow(header)
                for row in range(3):
                    writer.writerow(["C%d" % row, "A", "T%d" % row, "L", "LP", "", "1991", str(100 + row), "U", "", "", "", ""] + ["v"] * (10000 - 13))
            """
        #expect(try runProgram("/usr/bin/env", ["python3", "-c", script, file.path, ExportFixture.discogsHeader.joined(separator: "|")]).status == 0)
        let environment = cli.environment.map { "\($0.key)=\($0.value)" }
        let run = try runProgram(
            "/usr/bin/env", environment + ["/usr/bin/time", "-f", "peak-rss-kb=%M", CLIRunner.binary.path, "import", file.path], in: cli.folder)
        #expect(run.status == 0, "\(run.output)")
        for row in 1...3 {
            #expect(run.output.contains("\(file.path) row \(row) (line \(row + 1)) 'T\(row - 1)': field 'fields' has"), "row \(row): \(run.output.prefix(2000))")
        }
        #expect(run.output.contains("the limit is 256") && run.output.contains("3 not albums skipped"), "\(run.output.prefix(2000))")
        let peak = run.output.split(separator: "\n").compactMap { $0.split(separator: "=").last.flatMap { Int($0) } }.last
        #expect((peak ?? .max) < 64 * 1024, "peak resident memory \(peak ?? -1) KB")
        #expect(try cli.listedAlbums().count == before, "nothing added")
    }

    /// One odd row never refuses a whole export (SPEC 9): a row that cannot be an album is
    /// skipped and named, in the warnings and in the dry run's plan, the rest imports and the
    /// command succeeds; `--strict` refuses the export instead, importing nothing.
    @Test(arguments: ["missing fields", "wrong type"])
    func aRowThatCannotBeAnAlbumIsSkippedAndNamedOrRefusedWithStrict(kind: String) throws {
        let (cli, before, file) = try starterLibrary()
        defer { cli.remove() }
        let bad = kind == "missing fields" ? ["C-1", "Artist"] : ExportFixture.discogs(artist: "B", title: "T", released: "1991", id: "12ab")
        try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [good, bad], to: file)

        let strict = try cli.run("import", "--strict", file.path)
        #expect(strict.status != 0)
        #expect(strict.errorLines.count == 1 && strict.errorLines[0].contains("\(file.path) row 2 (line 4)"), "\(strict.error)")
        #expect(try cli.listedAlbums().count == before, "--strict imports nothing")

        let dry = try cli.run("import", "--dry-run", "--json", file.path)
        #expect(dry.status == 0, "a plan whose only invalid records are skipped would succeed: \(dry.error)")
        let plan = try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any]
        let entries = plan?["plan"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["outcome"] as? String } == ["new", "invalid"], "\(dry.output)")
        #expect((entries.last?["label"] as? String)?.contains("row 2 (line 4)") == true && entries.last?["reason"] as? String == "release_id '\(kind == "wrong type" ? "12ab" : "")' is not a number", "\(dry.output)")

        let result = try cli.run("import", file.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("1 added") && result.output.contains("1 not albums skipped"), "\(result.output)")
        #expect(result.error.contains("warning: \(file.path) row 2 (line 4): release_id"), "the record is named: \(result.error)")
        #expect(result.error.contains("warning: 1 record could not be an album and was skipped"), "\(result.error)")
        #expect(try cli.listedAlbums().count == before + 1)
    }

    /// A control character in an export's text becomes one space (SPEC 9), where it refused the
    /// whole export before.
    @Test func aControlCharacterInARowBecomesOneSpace() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)
        let file = cli.folder.appendingPathComponent("collection.csv")
        try ExportFixture.write(
            header: ExportFixture.discogsHeader,
            rows: [ExportFixture.discogs(artist: "Bell\u{7}\u{7}Boy", title: "Ring\u{1B}Tone\u{7}", released: "1991", id: "2"), Self.untidyRow], to: file)
        let result = try cli.run("import", file.path)
        #expect(result.status == 0, "\(result.error)")
        let albums = try cli.listedAlbums()
        #expect(albums.map { $0["artist"] as? String } == ["Bell Boy", "Autechre"] && albums.map { $0["title"] as? String } == ["Ring Tone", "Amber"], "\(albums)")
        // Beyond the core six too: a named field, a field kept in `fields`, and the notes, which keep their line break.
        let untidy = try #require(albums.last)
        #expect(untidy["label"] as? String == "Warp Records", "\(untidy)")
        #expect((untidy["fields"] as? [String: String])?["discogs.mediaCondition"] == "Mint (M)", "\(untidy)")
        #expect(untidy["notes"] as? String == "one two\nthree", "\(untidy)")
    }

    /// A row with a control character in its label, its media condition and its notes.
    private static var untidyRow: [String] {
        var row = ExportFixture.discogs(artist: "Autechre", title: "Amber", released: "1994", id: "3")
        row[3] = "Warp\u{7}Records"
        row[10] = "Mint\u{1B}(M)"
        row[12] = "one\u{7}two\nthree"
        return row
    }
}
