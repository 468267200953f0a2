import AlbumKitTesting
import Foundation
import Testing

/// End-to-end through the binary: every field of SPEC 1 set, unset, queried, sorted, shown,
/// listed as JSON, imported with its bad values refused or warned, and kept through export
/// and restore.
@Suite struct WholeAlbumCommandTests {
    /// A library of three albums with fields beyond the core six.
    private func library() throws -> CLIRunner {
        let cli = try CLIRunner()
        #expect(try cli.run("init").status == 0)
        let list = cli.folder.appendingPathComponent("collection.json")
        try Data(#"""
            [{"id": "discogs:1", "title": "Kind of Blue", "artist": "Miles Davis", "genre": "Jazz", "label": "Columbia",
              "catalogNumber": "CS 8163", "format": "LP, Album", "rating": 5, "released": "1959-08-17",
              "added": "2019-05-12T10:23:45+02:00", "tags": ["modal", "cool jazz"], "ids": {"discogs": "1"},
              "fields": {"discogs.folder": "Jazz"},
              "tracks": [{"title": "So What", "number": 1, "seconds": 562}, {"title": "Freddie Freeloader", "number": 2, "seconds": 586.5},
                         {"title": "Blue in Green", "number": 3, "seconds": 337}]},
             {"id": "discogs:2", "title": "Selected Ambient Works 85-92", "artist": "Aphex Twin", "label": "Apollo",
              "rating": 4.5, "released": "1992-11", "barcode": "5 012345 678900", "fields": {"discogs.folder": "Electronic"}},
             {"id": "plain", "title": "Low", "artist": "David Bowie", "year": 1977}]
            """#.utf8).write(to: list)
        let imported = try cli.run("import", list.path)
        #expect(imported.status == 0, "\(imported.error)")
        return cli
    }

    private func album(_ cli: CLIRunner, _ reference: String) throws -> [String: Any] {
        let result = try cli.run("show", reference, "--json")
        #expect(result.status == 0, "\(result.error)")
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return json?["album"] as? [String: Any] ?? [:]
    }

    private func positions(_ cli: CLIRunner, _ arguments: String...) throws -> [String] {
        let result = try cli.run(["list", "--format", "$position"] + arguments)
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func importKeepsEveryFieldAndShowJSONHasThem() throws {
        let cli = try library()
        defer { cli.remove() }
        let blue = try album(cli, "1")
        #expect(blue["label"] as? String == "Columbia")
        #expect(blue["catalogNumber"] as? String == "CS 8163")
        #expect(blue["rating"] as? Double == 5)
        #expect(blue["released"] as? String == "1959-08-17")
        #expect(blue["year"] as? String == "1959")
        #expect(blue["added"] as? String == "2019-05-12T08:23:45Z")
        #expect(blue["tags"] as? [String] == ["modal", "cool jazz"])
        #expect(blue["ids"] as? [String: String] == ["discogs": "1"])
        #expect(blue["fields"] as? [String: String] == ["discogs.folder": "Jazz"])
        #expect((blue["tracks"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["So What", "Freddie Freeloader", "Blue in Green"])
        #expect(blue["position"] as? Int == 1 && blue["cover"] as? String == "none")
        let low = try album(cli, "3")
        #expect(Set(low.keys) == ["position", "id", "title", "artist", "genre", "year", "coverUrl", "cover"], "absent stays absent")
    }

    @Test func showPrintsEveryFieldAndTheNumberedTracks() throws {
        let cli = try library()
        defer { cli.remove() }
        let shown = try cli.run("show", "1")
        #expect(shown.status == 0, "\(shown.error)")
        for line in ["label:    Columbia", "catalogNumber: CS 8163", "rating:   5", "released: 1959-08-17", "tags:     modal, cool jazz",
                     "ids.discogs: 1", "discogs.folder: Jazz", "tracks:   3", "   1. So What (9:22)", "   2. Freddie Freeloader (9:47)"] {
            #expect(shown.output.contains(line), "missing '\(line)' in:\n\(shown.output)")
        }
    }

    @Test func setAndUnsetEveryKindOfFieldAsOneUndoableStep() throws {
        let cli = try library()
        defer { cli.remove() }
        let update = try cli.run(
            "update", "3", "--set", "label=RCA", "--set", "rating=4.5", "--set", "released=1977-01-14", "--set", "mood=calm",
            "--set", "discogs.folder=Rock", "--set", "tags=art rock, berlin", "--set", "ids.musicbrainz=abc")
        #expect(update.status == 0, "\(update.error)")
        var low = try album(cli, "3")
        #expect(low["label"] as? String == "RCA" && low["rating"] as? Double == 4.5 && low["released"] as? String == "1977-01-14")
        #expect(low["fields"] as? [String: String] == ["mood": "calm", "discogs.folder": "Rock"])
        #expect(low["tags"] as? [String] == ["art rock", "berlin"] && low["ids"] as? [String: String] == ["musicbrainz": "abc"])
        #expect(try cli.run("update", "3", "--unset", "label", "--unset", "mood").status == 0)
        low = try album(cli, "3")
        #expect(low["label"] == nil && low["fields"] as? [String: String] == ["discogs.folder": "Rock"])
        #expect(try cli.run("undo").status == 0)
        #expect(try album(cli, "3")["label"] as? String == "RCA")
        #expect(try cli.run("undo").status == 0)
        #expect(Set(try album(cli, "3").keys) == ["position", "id", "title", "artist", "genre", "year", "coverUrl", "cover"])
        let added = try cli.run("add", "--title", "Heroes", "--artist", "David Bowie", "--set", "label=RCA", "--set", "rating=4")
        #expect(added.status == 0, "\(added.error)")
        #expect(try album(cli, "4")["label"] as? String == "RCA")
    }

    @Test func badValuesAndMisspeltFieldsAreRefusedWithTheLibraryUntouched() throws {
        let cli = try library()
        defer { cli.remove() }
        let file = cli.libraryFolder.appendingPathComponent("library.json")
        let before = try Data(contentsOf: file)
        for (arguments, message) in [
            (["update", "3", "--set", "lable=X"], "did you mean 'label'?"),
            (["update", "3", "--set", "rating=7"], "field 'rating' must be a number from 0.5 to 5"),
            (["update", "3", "--set", "released=1977-13-40"], "field 'released' must be YYYY"),
            (["update", "3", "--set", "has space=1"], "is not a field name"),
            (["update", "3", "--unset", "title"], "cannot be removed"),
        ] {
            let result = try cli.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.error.lowercased().hasPrefix("error:") && result.error.contains(message), "\(arguments): \(result.error)")
            #expect(try Data(contentsOf: file) == before)
        }
        #expect(try cli.run("update", "3", "--set", "fields.lable=X").status == 0, "fields.NAME keeps a name close to a field on purpose")
    }

    @Test func queriesSortAndTemplatesOnEveryKindOfField() throws {
        let cli = try library()
        defer { cli.remove() }
        #expect(try positions(cli, "label:columbia") == ["1"])
        #expect(try positions(cli, "rating:4..") == ["1", "2"])
        #expect(try positions(cli, "rating:..4.5") == ["2"])
        #expect(try positions(cli, "released:1950..1960") == ["1"])
        #expect(try positions(cli, "released:1992") == ["2"])
        #expect(try positions(cli, "added:2019-05..") == ["1"])
        #expect(try positions(cli, "tracks:3..") == ["1"])
        #expect(try positions(cli, "discogs.folder:electronic") == ["2"])
        #expect(try positions(cli, "has:barcode") == ["2"])
        #expect(try positions(cli, "^has:rating") == ["3"])
        #expect(try positions(cli, "ids.discogs:1") == ["1"])
        #expect(try positions(cli, "--sort", "rating-") == ["1", "2", "3"])
        #expect(try positions(cli, "--sort", "released") == ["3", "1", "2"])
        let lines = try cli.run("list", "--format", "$label|${discogs.folder}|$rating|$tracks")
        #expect(lines.output == "Columbia|Jazz|5|3\nApollo|Electronic|4.5|\n|||\n", "\(lines.output)")
        let typo = try cli.run("list", "lable:x")
        #expect(typo.status != 0 && typo.error.contains("did you mean 'label'?"), "\(typo.error)")
        let help = try cli.run("help", "fields")
        #expect(help.status == 0 && help.output.contains("catalogNumber") && help.output.contains("ids.NAME"))
    }

    @Test func statsCountsByLabelFormatDecadeAndRating() throws {
        let cli = try library()
        defer { cli.remove() }
        let stats = try cli.run("stats")
        #expect(stats.status == 0, "\(stats.error)")
        for line in ["by label:", "Columbia", "by decade:", "1950s", "1990s", "by rating:", "4.5", "(unrated)"] {
            #expect(stats.output.contains(line), "missing '\(line)' in:\n\(stats.output)")
        }
    }

    @Test func bundleExportAndRestoreKeepEveryField() throws {
        let cli = try library()
        defer { cli.remove() }
        let before = try cli.run("list", "--json").output
        let bundle = cli.folder.appendingPathComponent("backup.tar.gz").path
        #expect(try cli.run("export", bundle).status == 0)
        let restored = try cli.run("restore", bundle, "--force")
        #expect(restored.status == 0, "\(restored.error)")
        #expect(try cli.run("list", "--json").output == before)
        for other in ["albums.json", "albums.plist"] {
            let list = cli.folder.appendingPathComponent(other).path
            #expect(try cli.run("export", list).status == 0)
            let fresh = try CLIRunner()
            defer { fresh.remove() }
            #expect(try fresh.run("init").status == 0)
            #expect(try fresh.run("import", list).status == 0)
            #expect(try fresh.run("list", "--json").output == before, "through \(other)")
        }
    }

    @Test func migrateToEveryBackendKeepsEveryField() throws {
        let cli = try library()
        defer { cli.remove() }
        // The history walked once first: where it leaves the selection is where every backend must.
        #expect(try cli.run("undo").status == 0 && cli.run("redo").status == 0)
        #expect(try cli.run("select", "2").status == 0)
        let before = try cli.run("list", "--json").output
        var backends = ["sqlite", "plist", "bundle"]
        var postgres: [String] = []
        if PostgresTestServer.enabled {
            postgres = ["--url", try PostgresTestServer.freshDatabase()]
            backends.append("postgres")
        }
        for backend in backends {
            let moved = try cli.run(["migrate", "--to", backend] + (backend == "postgres" ? postgres : []))
            #expect(moved.status == 0, "\(backend): \(moved.error)")
            #expect(try cli.run("list", "--json").output == before, "after migrate --to \(backend)")
            #expect(try cli.run("undo").status == 0, "the history came along to \(backend)")
            #expect(try cli.run("redo").status == 0 && cli.run("select", "2").status == 0)
            #expect(try cli.run("list", "--json").output == before, "after undo and redo on \(backend)")
        }
    }

    @Test func aLargeFileLibrarySaysOnceHowToMoveIt() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)
        let list = cli.folder.appendingPathComponent("many.json")
        let albums = (0...25_000).map { #"{"id":"a-\#($0)","title":"T \#($0)","artist":"A"}"# }
        try Data("[\(albums.joined(separator: ","))]".utf8).write(to: list)
        #expect(try cli.run("import", list.path).status == 0)
        let shown = try cli.run("show", "1")
        let lines = shown.error.split(separator: "\n")
        #expect(shown.status == 0 && lines.count == 1 && lines[0].contains("'albumkit migrate --to sqlite'"), "\(shown.error)")
        #expect(try cli.run("migrate", "--to", "sqlite").status == 0)
        #expect(try cli.run("show", "1").error.isEmpty, "a database library says nothing")
    }

    /// SPEC 1's bad input: each refused with one error line naming the album and the field, the
    /// library folder byte for byte as it was.
    @Test(arguments: [
        (#"{"title": "Long", "artist": "A", "label": "\#(String(repeating: "x", count: 70_000))"}"#, "field 'label' is 70000 bytes"),
        (#"{"title": "Many", "artist": "A", "tracks": [\#(Array(repeating: #"{"title": "t"}"#, count: 2_000).joined(separator: ","))]}"#,
         "field 'tracks' has 2000 tracks; the limit is 1000"),
        (#"{"title": "Rated", "artist": "A", "rating": 7}"#, "field 'rating' must be a number from 0.5 to 5"),
        (#"{"title": "Dated", "artist": "A", "released": "1977-13-40"}"#, "field 'released' must be YYYY, YYYY-MM or YYYY-MM-DD"),
        (#"{"title": "Named", "artist": "A", "fields": {"has space": "x"}}"#, "field 'fields' has the name 'has space'"),
    ])
    func badAlbumsAreRefusedNamingAlbumAndField(_ album: String, _ message: String) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init", "--starter").status == 0)
        let list = cli.folder.appendingPathComponent("bad.json")
        try Data("[\(album)]".utf8).write(to: list)
        let before = try FolderSnapshot(cli.libraryFolder)
        let refused = try cli.run("import", list.path)
        #expect(refused.status != 0)
        let lines = refused.error.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error:") && refused.error.contains("#1 '") && refused.error.contains(message), "\(refused.error.prefix(300))")
        #expect(try FolderSnapshot(cli.libraryFolder) == before)
    }

    @Test func importWarnsOfDroppedKeysAndRefusesBadAlbumsNamingThem() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)
        let list = cli.folder.appendingPathComponent("odd.json")
        try Data(#"[{"title": "T", "artist": "A", "rank": {"x": 1}, "playCount": 3}]"#.utf8).write(to: list)
        let warned = try cli.run("import", list.path)
        #expect(warned.status == 0, "\(warned.error)")
        let warning = warned.error.split(separator: "\n").filter { $0.lowercased().hasPrefix("warning:") }
        #expect(warning.count == 1 && warning[0].contains("#1 'T'") && warning[0].contains("'rank'"), "\(warned.error)")
        #expect(try album(cli, "1")["fields"] as? [String: String] == ["playCount": "3"])
        let bad = cli.folder.appendingPathComponent("bad.json")
        try Data(#"[{"title": "Good", "artist": "A"}, {"title": "Rated", "artist": "B", "rating": 7}]"#.utf8).write(to: bad)
        let refused = try cli.run("import", bad.path)
        #expect(refused.status != 0)
        #expect(refused.error.contains("'Rated'") && refused.error.contains("field 'rating'"), "\(refused.error)")
    }
}

/// Every file under a folder and its bytes, to compare a library before and after.
private struct FolderSnapshot: Equatable {
    let files: [String: Data]

    init(_ folder: URL) throws {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
        }
        self.files = files
    }
}
