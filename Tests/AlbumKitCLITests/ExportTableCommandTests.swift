import AlbumKitTesting
import Foundation
import Testing

/// `albumkit export FILE.csv|FILE.jsonl [--fields …] [--format …]` (SPEC 12), read back by
/// Python's `csv` and `json` modules, the readers spreadsheets' and scripts' users have.
@Suite struct ExportTableCommandTests {
    /// The starter albums and one whose title needs quoting in CSV.
    private func library() throws -> CLIRunner {
        let cli = try CLIRunner()
        #expect(try cli.run("init", "--starter").status == 0)
        #expect(try cli.run("add", "--title", "Quotes, \"Commas\" and, more", "--artist", "X", "--year", "1999").status == 0)
        return cli
    }

    /// What Python's `csv.reader` or `json.loads` reads back from `file`: rows of fields.
    private func readBack(_ file: URL) throws -> [[String?]] {
        let script = """
            import csv, json, sys
            path = sys.argv[1]
            if path.endswith('.csv'):
                rows = list(csv.reader(open(path, newline='', encoding='utf-8')))
            else:
                rows = []
                for line in open(path, encoding='utf-8'):
                    item = json.loads(line)
                    rows.append([[key, value] for key, value in item.items()])
            print(json.dumps(rows))
            """
        let run = try runProgram("/usr/bin/env", ["python3", "-c", script, file.path])
        try #require(run.status == 0, "\(run.output)")
        let rows = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [Any] ?? []
        return rows.map { row in (row as? [Any] ?? []).map { $0 as? String ?? ($0 as? [Any]).map { "\($0[0]):\($0[1] as? String ?? "null")" } } }
    }

    @Test func csvHasTheCoreFieldsOfEveryAlbumByDefault() throws {
        let cli = try library()
        defer { cli.remove() }
        let file = cli.folder.appendingPathComponent("albums.csv")
        let result = try cli.run("export", file.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("(csv,"), "\(result.output)")
        let rows = try readBack(file)
        let core = ["id", "title", "artist", "genre", "year", "coverUrl"]
        #expect(rows.first == core)
        let listed = try cli.listedAlbums()
        #expect(Array(rows.dropFirst()) == listed.map { album in core.map { album[$0] as? String ?? "" } }, "\(rows)")
        #expect(listed.last?["title"] as? String == "Quotes, \"Commas\" and, more")
    }

    @Test func jsonLinesHaveTheFieldsAskedForInThatOrder() throws {
        let cli = try library()
        defer { cli.remove() }
        let file = cli.folder.appendingPathComponent("albums.jsonl")
        let result = try cli.run("export", file.path, "--fields", "year,title,coverUrl")
        #expect(result.status == 0, "\(result.error)")
        let listed = try cli.listedAlbums()
        let expected = listed.map { album in
            ["year:\(album["year"] as? String ?? "")", "title:\(album["title"] as? String ?? "")", "coverUrl:\(album["coverUrl"] as? String ?? "null")"]
        }
        #expect(try readBack(file) == expected)
    }

    @Test func formatChoosesTheExporterWhateverTheName() throws {
        let cli = try library()
        defer { cli.remove() }
        let file = cli.folder.appendingPathComponent("albums.txt")
        let result = try cli.run("export", file.path, "--format", "csv", "--fields", "title")
        #expect(result.status == 0, "\(result.error)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("title\r\n"), "\(text)")
        #expect(try cli.run("plugins").output.contains("jsonl"))
    }

    @Test(arguments: [
        (["albums.csv", "--fields", "titel"], "--fields: no field 'titel' (did you mean 'title'?"),
        (["albums.csv", "--fields", "title,title"], "--fields: 'title' is named twice"),
        (["albums.tar.gz", "--fields", "title"], "--fields: the bundle exporter writes every field"),
        (["albums.csv", "--format", "nosuch"], "--format nosuch: no such exporter"),
    ])
    func wrongChoicesAreErrorsThatWriteNothing(arguments: [String], message: String) throws {
        let cli = try library()
        defer { cli.remove() }
        let result = try cli.run(["export"] + arguments)
        #expect(result.status != 0)
        #expect(result.errorLines.count == 1 && result.errorLines[0].contains(message), "\(result.error)")
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).filter { $0.hasPrefix("albums") || $0.hasPrefix(".albums") }
        #expect(left.isEmpty, "\(left)")
    }
}
