import AlbumKitTesting
import Foundation
import Testing

/// End-to-end: configuration sources, backend switching, import and export of album lists.
@Suite struct ConfigAndImportCommandTests {
    @Test func unknownConfigKeyFailsNamingTheKeyAndFile() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let config = cli.folder.appendingPathComponent("albumkit.yaml")
        try Data("storage:\n  backend: json\n  compression: lots\n".utf8).write(to: config)
        let result = try cli.run("list")
        #expect(result.status != 0)
        #expect(result.error.hasPrefix("error:"))
        #expect(result.error.contains("storage.compression") && result.error.contains(config.path))
    }

    @Test func environmentSwitchesTheBackendToPlist() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let plist = ["ALBUMKIT_STORAGE_BACKEND": "plist"]
        #expect(try cli.run("init", "--starter", environment: plist).status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.libraryFolder.appendingPathComponent("library.plist").path))
        #expect(!FileManager.default.fileExists(atPath: cli.libraryFolder.appendingPathComponent("library.json").path))
        #expect(try cli.run("remove", "1", environment: plist).status == 0)
        #expect(try cli.run("list", environment: plist).output.contains("It's My Life"))
        let shown = try cli.run("config", "show", environment: plist).output
        #expect(shown.contains("storage.backend") && shown.contains("plist") && shown.contains("environment ALBUMKIT_STORAGE_BACKEND"))
        #expect(try cli.run("list").status != 0, "the json library was never created")
    }

    @Test func configFileAndFlagsChooseLibraryAndFormat() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try Data("library: mylib\nstorage:\n  backend: plist\n  format: binary\n".utf8)
            .write(to: cli.folder.appendingPathComponent("albumkit.yaml"))
        #expect(try cli.run("init").status == 0)
        let file = cli.folder.appendingPathComponent("mylib/library.plist")
        #expect(try Data(contentsOf: file).prefix(6) == Data("bplist".utf8))
        #expect(try cli.run("--backend", "json", "--library", "other", "init").status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("other/library.json").path))
        let shown = try cli.run("config", "show", "--backend", "json").output
        #expect(shown.contains("flag --backend"))
    }

    @Test func tutorialJSONAndPythonPlistImportAndExportRoundTrips() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let json = cli.folder.appendingPathComponent("albums.json")
        try Data("""
            [{"title": "Best of Bowie", "artist": "David Bowie", "genre": "Pop", "year": "1992", "coverUrl": "https://example.com/a.png"},
             {"title": "It's My Life", "artist": "No Doubt", "genre": "Pop", "year": 2003}]
            """.utf8).write(to: json)
        let plist = cli.folder.appendingPathComponent("albums.plist")
        let script = "import plistlib,sys; plistlib.dump({'albums':[{'title':'Kid A','artist':'Radiohead','year':2000}]}, open(sys.argv[1],'wb'), fmt=plistlib.FMT_BINARY)"
        #expect(try runProgram("/usr/bin/env", ["python3", "-c", script, plist.path]).status == 0)
        let imported = try cli.run("import", json.path, plist.path)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("3 added"))
        let again = try cli.run("import", json.path)
        #expect(again.output.contains("0 added, 2 skipped"))
        #expect(try cli.run("undo").status == 0, "the skipped import changed nothing, so undo takes back the first")
        #expect(try cli.run("list").output.contains("(no albums)"))
        try cli.run("redo")
        for name in ["out.json", "out.plist"] {
            #expect(try cli.run("export", name).status == 0)
            let copy = try CLIRunner()
            defer { copy.remove() }
            try copy.run("init")
            #expect(try copy.run("import", cli.folder.appendingPathComponent(name).path).status == 0)
            #expect(try copy.run("list", "--json").output.replacingOccurrences(of: "\"current\":null", with: "")
                == (try cli.run("list", "--json").output.replacingOccurrences(of: "\"current\":null", with: "")), "\(name) must keep ids, fields and order")
        }
    }

    @Test func dryRunReportsAndWritesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let json = cli.folder.appendingPathComponent("albums.json")
        try Data(#"[{"title": "A", "artist": "B"}]"#.utf8).write(to: json)
        let before = try Data(contentsOf: cli.libraryFolder.appendingPathComponent("library.json"))
        let result = try cli.run("import", "--dry-run", json.path)
        #expect(result.output.contains("Would import: 1 new, 0 duplicate"), "\(result.output)")
        #expect(try Data(contentsOf: cli.libraryFolder.appendingPathComponent("library.json")) == before)
    }

    @Test func pluginsListsTheBuiltIns() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let output = try cli.run("plugins").output
        #expect(output.contains("storage backends:") && output.contains("  json") && output.contains("  plist"))
        #expect(output.contains("album sources:"))
    }
}
