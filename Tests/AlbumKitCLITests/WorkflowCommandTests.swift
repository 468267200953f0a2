import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// The one-door workflows through the binary, and the paths that used to surprise: covers
/// fetched from URLs travel through export and import, verify notes what nothing links,
/// migrate --replace, init and restore on a folder with no library, export over a file or into
/// a missing folder, verify of an album list, a library folder that says what holds it.
@Suite struct WorkflowCommandTests {
    /// A starter cover as a local file under `covers.fileRoots`.
    private func localCover(_ cli: CLIRunner) throws -> (url: String, environment: [String: String]) {
        let folder = cli.folder.appendingPathComponent("pictures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let starter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Bundles/starter/covers")
        let name = try FileManager.default.contentsOfDirectory(atPath: starter.path).sorted()[0]
        try FileManager.default.copyItem(at: starter.appendingPathComponent(name), to: folder.appendingPathComponent("low.png"))
        return ("file://" + folder.appendingPathComponent("low.png").path, ["ALBUMKIT_COVERS_FILE_ROOTS": folder.path])
    }

    private func covers(_ cli: CLIRunner, library: String? = nil) throws -> [String] {
        let output = try cli.run((library.map { ["--library", $0] } ?? []) + ["list", "--json"]).output
        let albums = (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["albums"] as? [[String: Any]]
        return albums?.compactMap { $0["cover"] as? String } ?? []
    }

    @Test func coversFetchedFromURLsStayLinkedThroughExportAndImport() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let (url, roots) = try localCover(cli)
        try cli.run("init")
        #expect(try cli.run(["add", "--title", "Low", "--artist", "Bowie", "--cover", url], environment: roots).status == 0)
        #expect(try covers(cli) == ["stored"])
        let bundle = cli.folder.appendingPathComponent("backup.tar.gz").path
        #expect(try cli.run("export", bundle).status == 0)
        try cli.run("--library", "other", "init")
        let imported = try cli.run("--library", "other", "import", bundle)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(try covers(cli, library: "other") == ["stored"], "the bundle's cover must be linked to its album")
        let verified = try cli.run("--library", "other", "verify")
        #expect(verified.status == 0 && !verified.output.contains("note:"), "\(verified.output)")
        #expect(try cli.run("--library", "other", "covers", "prune").output.contains("Removed 0"))
        #expect(try covers(cli, library: "other") == ["stored"])
    }

    @Test func verifyNotesACoverNothingLinksAndFailsOnABrokenLinkedOne() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        let folder = cli.libraryFolder.appendingPathComponent("covers")
        let stray = Data("stray cover bytes".utf8)
        let name = SHA256Digest.hex(of: stray) + ".png"
        try stray.write(to: folder.appendingPathComponent(name))
        let noted = try cli.run("verify")
        #expect(noted.status == 0, "\(noted.error)")
        #expect(noted.output.contains("note: stored cover covers/\(name) is linked to no album"), "\(noted.output)")
        // Cut short, as an import killed while writing it leaves it: still garbage, still a note.
        try Data("other bytes".utf8).write(to: folder.appendingPathComponent(name))
        let cut = try cli.run("verify")
        #expect(cut.status == 0 && cut.output.contains("note: stored cover covers/\(name) is linked to no album"), "\(cut.output)")
        // Linked to an album, the same damage is a problem.
        #expect(try cli.run("add", "--title", "Linked", "--artist", "A", "--cover", "covers/\(name)").status == 0)
        let broken = try cli.run("verify")
        #expect(broken.status != 0 && broken.output.contains("problem: cover covers/\(name): its bytes hash to"), "\(broken.output)")
    }

    @Test func migrateBackOntoTheOldFileNeedsReplaceAndSavesItFirst() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        #expect(try cli.run("migrate", "--to", "sqlite").status == 0)
        try cli.run("add", "--title", "Only in sqlite", "--artist", "A")
        let refused = try cli.run("migrate", "--to", "json")
        #expect(refused.status != 0 && refused.error.contains("add --replace"), "\(refused.error)")
        let replaced = try cli.run("migrate", "--to", "json", "--replace")
        #expect(replaced.status == 0, "\(replaced.error)")
        let backups = try FileManager.default.contentsOfDirectory(atPath: cli.libraryFolder.appendingPathComponent("backups").path)
        #expect(backups.count == 1 && replaced.output.contains(backups[0]), "\(replaced.output)")
        let titles = try cli.run("list", "--json").output
        #expect(titles.contains("Only in sqlite"), "the json library is now the migrated one")
    }

    /// json → plist → json → sqlite → json, with a change made in the property list library:
    /// every album, the selection and the whole history arrive each time, although the JSON and
    /// the property list library share their folder and its history folder, and `--replace`
    /// saves the library it replaces (with its own history) to backups/ first.
    @Test func migrateRoundTripThroughTheBackendsKeepsAlbumsSelectionAndHistory() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        for change in [["add", "--title", "First", "--artist", "A"], ["remove", "2"], ["move", "1", "--to", "4"], ["select", "3"]] {
            #expect(try cli.run(change).status == 0)
        }
        #expect(try cli.run("migrate", "--to", "plist").status == 0)
        #expect(try cli.run("add", "--title", "In plist", "--artist", "B").status == 0)
        #expect(try cli.run("undo").status == 0, "a step to redo travels too")
        let expected = try library(cli)
        #expect(expected.undo.count == 3 && expected.redo.count == 1, "\(expected)")
        for (backend, replace) in [("json", true), ("sqlite", false), ("json", true)] {
            let migrated = try cli.run(["migrate", "--to", backend] + (replace ? ["--replace"] : []))
            #expect(migrated.status == 0, "migrate --to \(backend): \(migrated.error)")
            let arrived = try library(cli)
            #expect(arrived == expected, "after migrate --to \(backend)")
        }
    }

    /// A library as the commands show it: its albums' ids and titles in order, the current
    /// album, and its history as `undo` and `redo` name each step (walked there and back).
    private struct ShownLibrary: Equatable {
        var albums: [String]
        var current: String
        var undo: [String] = []
        var redo: [String] = []
    }

    private func library(_ cli: CLIRunner) throws -> ShownLibrary {
        let albums = try cli.listedAlbums().map { "\($0["id"] ?? "") \($0["title"] ?? "")" }
        // The current album's id (`current` also says where its cover file is, which differs by backend).
        let current = try cli.run("current").output.split(separator: "\n").first { $0.hasPrefix("id:") }
        var shown = ShownLibrary(albums: albums, current: String(current ?? "none"))
        shown.undo = try walk(cli, "undo")
        for _ in shown.undo { #expect(try cli.run("redo").status == 0) }
        shown.redo = try walk(cli, "redo")
        for _ in shown.redo { #expect(try cli.run("undo").status == 0) }
        #expect(try cli.listedAlbums().map { "\($0["id"] ?? "") \($0["title"] ?? "")" } == albums, "walking the history there and back")
        return shown
    }

    /// What `command` (`undo` or `redo`) says at each step, run until it fails.
    private func walk(_ cli: CLIRunner, _ command: String) throws -> [String] {
        var said: [String] = []
        while true {
            let result = try cli.run(command)
            guard result.status == 0 else { return said }
            said.append(result.output)
        }
    }

    @Test func initFromABadStarterLeavesNoLibrary() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let bad = cli.folder.appendingPathComponent("bad.tar.gz")
        try Data("not an archive".utf8).write(to: bad)
        for path in [bad.path, cli.folder.appendingPathComponent("missing.tar.gz").path] {
            let result = try cli.run("init", "--starter", path)
            #expect(result.status != 0 && result.error.hasPrefix("error:"), "\(result.error)")
            #expect(!FileManager.default.fileExists(atPath: cli.libraryFolder.appendingPathComponent("library.json").path))
        }
    }

    @Test func restoreIntoAFolderWithoutALibraryCreatesIt() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        let bundle = cli.folder.appendingPathComponent("backup.tar.gz").path
        try cli.run("export", bundle)
        let bad = cli.folder.appendingPathComponent("bad.tar.gz")
        try Data("garbage".utf8).write(to: bad)
        let refused = try cli.run("--library", "fresh", "restore", bad.path)
        #expect(refused.status != 0)
        #expect(!FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("fresh/library.json").path), "a refused bundle leaves nothing")
        let restored = try cli.run("--library", "fresh", "restore", bundle)
        #expect(restored.status == 0, "\(restored.error)")
        #expect(try covers(cli, library: "fresh") == Array(repeating: "stored", count: 5))
    }

    @Test func exportOverAFileNeedsForceAndIntoAMissingFolderNamesIt() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        let file = cli.folder.appendingPathComponent("out.json")
        try Data("precious".utf8).write(to: file)
        let refused = try cli.run("export", file.path)
        #expect(refused.status != 0 && refused.error.contains("--force"), "\(refused.error)")
        #expect(try Data(contentsOf: file) == Data("precious".utf8))
        #expect(try cli.run("export", "--force", file.path).status == 0)
        let missing = cli.folder.appendingPathComponent("no/such/folder/out.tar.gz").path
        let nowhere = try cli.run("export", missing)
        #expect(nowhere.status != 0 && nowhere.error.contains(cli.folder.appendingPathComponent("no/such/folder").path), "\(nowhere.error)")
    }

    @Test func verifyOfAnAlbumListChecksEveryAlbum() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let good = cli.folder.appendingPathComponent("good.json")
        try Data(#"[{"title": "Low", "artist": "Bowie", "year": 1977}]"#.utf8).write(to: good)
        let fine = try cli.run("verify", good.path)
        #expect(fine.status == 0 && fine.output.contains("no problems found"), "\(fine.output) \(fine.error)")
        let bad = cli.folder.appendingPathComponent("bad.json")
        try Data(#"[{"title": "Low", "artist": "Bowie", "year": "nineteen"}]"#.utf8).write(to: bad)
        let found = try cli.run("verify", bad.path)
        #expect(found.status != 0 && found.output.contains("'year'"), "\(found.output)")
    }

    @Test func aLibraryFolderSaysWhatHoldsIt() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("--library", "mine", "init", "--starter")
        let config = cli.folder.appendingPathComponent("albumkit.yaml")
        try Data("storage:\n  backend: sqlite\n".utf8).write(to: config)
        #expect(try covers(cli, library: "mine").count == 5, "--library finds the json library whatever the configuration says")
        let hinted = try cli.run("list")
        #expect(hinted.status != 0 && hinted.error.contains("no library"), "\(hinted.error)")
        try cli.run("init")
        try FileManager.default.removeItem(at: cli.libraryFolder.appendingPathComponent("library.sqlite"))
        try Data("storage:\n  backend: plist\n".utf8).write(to: config)
        try cli.run(["--backend", "json", "init"])
        let other = try cli.run("list")
        #expect(other.status != 0 && other.error.contains("a json library is there") && other.error.contains("--backend json"), "\(other.error)")
    }

    @Test func eventsGoToStandardErrorWithADash() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let result = try cli.run("--events", "-", "add", "--title", "Low", "--artist", "Bowie")
        #expect(result.status == 0)
        let lines = result.error.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix(#"{"event":"library.albumAdded""#) }, "\(result.error)")
        #expect(!result.output.contains("\"event\""))
    }

    @Test func pluginsHelpAndVersionSayEverything() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let plugins = try cli.run("plugins").output
        for expected in [
            "storage backends:", "  json", "  plist", "  bundle", "  sqlite", "  postgres", "album sources:", "import stages:",
            "  validate", "  normalize", "  dedupe", "  covers", "exporters:", "cover fetchers:", "  http", "  file",
            "enrichers:", "  musicbrainz", "  discogs",
        ] {
            #expect(plugins.contains(expected), "plugins does not list \(expected)")
        }
        // Each source names the module that declares it, also where a shared reader does the work.
        for (source, module) in [("discogs", "DiscogsSource"), ("rym", "RYMSource"), ("itunes", "ITunesSource"), ("audio", "AudioFiles")] {
            #expect(plugins.split(separator: "\n").contains { $0.hasPrefix("  \(source) — ") && $0.contains("[package \(module),") },
                    "plugins: \(source) should come from \(module)")
        }
        let help = try cli.run("--help").output
        for command in ["init", "list", "show", "add", "update", "remove", "move", "undo", "redo", "select", "current", "import",
                        "export", "restore", "verify", "covers", "enrich", "config", "plugins", "migrate", "pipeline", "stats"] {
            #expect(help.contains("  \(command)"), "--help does not list \(command)")
        }
        let version = try cli.run("--version")
        #expect(version.output == "\(AlbumKitVersionText.current)\n")
    }
}

/// The version the binary reports, read from the source the way a packager would.
enum AlbumKitVersionText {
    static let current: String = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/AlbumKit/Support/AlbumKitVersion.swift")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.firstMatch(of: /current = "([^"]+)"/).map { String($0.1) } ?? "?"
    }()
}
