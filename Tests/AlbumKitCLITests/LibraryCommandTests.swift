import AlbumKitTesting
import Foundation
import Testing

/// End-to-end: the built binary, one process per command, state carried on disk.
@Suite struct LibraryCommandTests {
    private func listJSON(_ cli: CLIRunner, _ extra: String...) throws -> [String: Any] {
        let result = try cli.run(["list", "--json"] + extra)
        #expect(result.status == 0, "\(result.error)")
        return try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] ?? [:]
    }

    private func titles(_ cli: CLIRunner) throws -> [String] {
        (try listJSON(cli)["albums"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    private static let starterTitles = ["Best of Bowie", "It's My Life", "...Nothing Like the Sun", "Staring at the Sun", "American Pie"]

    @Test func initStarterListsTheTutorialAlbumsWithCovers() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let created = try cli.run("init", "--starter")
        #expect(created.status == 0, "\(created.error)")
        let list = try listJSON(cli)
        let albums = list["albums"] as? [[String: Any]] ?? []
        #expect(albums.compactMap { $0["title"] as? String } == Self.starterTitles)
        #expect(albums.compactMap { $0["year"] as? String } == ["2002", "2003", "1987", "1997", "2000"])
        #expect(albums.compactMap { $0["genre"] as? String } == ["Rock", "Pop", "Pop", "Rock", "Pop"])
        #expect(albums.allSatisfy { $0["cover"] as? String == "stored" })
        #expect(Set(albums[0].keys) == ["position", "id", "title", "artist", "genre", "year", "coverUrl", "cover"])
        #expect(list.keys.contains("current"))
        let covers = try FileManager.default.contentsOfDirectory(atPath: cli.libraryFolder.appendingPathComponent("covers").path)
        #expect(covers.count == 5)
    }

    @Test func initOnAnExistingLibraryFailsAndTouchesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        let file = cli.libraryFolder.appendingPathComponent("library.json")
        let before = try Data(contentsOf: file)
        let again = try cli.run("init")
        #expect(again.status != 0)
        #expect(again.error.lowercased().hasPrefix("error:") && again.error.contains("already exists"))
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func removeInOneProcessUndoInTheNextRestoresPositionTwo() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        #expect(try cli.run("remove", "2").status == 0)
        #expect(try titles(cli) == Self.starterTitles.enumerated().filter { $0.offset != 1 }.map(\.element))
        let undo = try cli.run("undo")
        #expect(undo.status == 0)
        #expect(undo.output.contains("It's My Life"), "undo must say what it undid")
        #expect(try titles(cli) == Self.starterTitles)
        #expect(try cli.run("redo").status == 0)
        #expect(try titles(cli).count == 4)
    }

    @Test func removeSeveralIsOneUndoStepAndEmptyHistoryFails() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        #expect(try cli.run("remove", "1", "3").status == 0)
        #expect(try titles(cli) == ["It's My Life", "Staring at the Sun", "American Pie"])
        #expect(try cli.run("undo").status == 0)
        #expect(try titles(cli) == Self.starterTitles)
        let empty = try cli.run("undo")
        #expect(empty.status != 0)
        #expect(empty.error.hasPrefix("error: nothing to undo"))
    }

    @Test func selectionSurvivesARestartAndFollowsItsAlbum() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        #expect(try cli.run("select", "3").status == 0)
        let current = try cli.run("current", "--json")
        let album = (try JSONSerialization.jsonObject(with: Data(current.output.utf8)) as? [String: Any])?["album"] as? [String: Any]
        #expect(album?["title"] as? String == "...Nothing Like the Sun")
        try cli.run("remove", "1")
        let moved = try cli.run("current")
        #expect(moved.output.contains("...Nothing Like the Sun") && moved.output.contains("position: 2"))
        #expect(try listJSON(cli)["current"] as? String == "starter-nothing-like-the-sun")
    }

    @Test func twentyConcurrentAddsAllLand() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let running = try (0..<20).map { try cli.start(["add", "--title", "Parallel \($0)", "--artist", "Many"]) }
        let results = try running.map { try $0.wait() }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.error).joined())")
        let stored = try titles(cli)
        #expect(stored.count == 20)
        #expect(Set(stored) == Set((0..<20).map { "Parallel \($0)" }))
    }

    @Test func addUpdateMoveShowWorkByPositionAndID() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        #expect(try cli.run("add", "--title", " Low ", "--artist", "David Bowie", "--year", "1977", "--at", "2").status == 0)
        #expect(try titles(cli)[1] == "Low")
        #expect(try cli.run("update", "2", "--genre", "Art rock", "--year", "1977").status == 0)
        #expect(try cli.run("move", "starter-american-pie", "--to", "1").status == 0)
        let show = try cli.run("show", "3", "--json")
        let album = (try JSONSerialization.jsonObject(with: Data(show.output.utf8)) as? [String: Any])?["album"] as? [String: Any]
        #expect(album?["title"] as? String == "Low")
        #expect(album?["genre"] as? String == "Art rock")
        #expect(album?["cover"] as? String == "none")
        #expect(try titles(cli).first == "American Pie")
    }

    @Test(arguments: [
        ["remove", "9"], ["show", "no-such-id"], ["add", "--title", "", "--artist", "A"],
        ["add", "--title", "T", "--artist", "A", "--year", "12345"], ["move", "1", "--to", "99"],
        ["update", "1", "--title", "bad\u{1}"], ["import", "missing.json"], ["export", "out.zip"],
    ])
    func errorsSayErrorAndLeaveTheLibraryAsItWas(_ arguments: [String]) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        let file = cli.libraryFolder.appendingPathComponent("library.json")
        let before = try Data(contentsOf: file)
        let result = try cli.run(arguments)
        #expect(result.status != 0)
        #expect(result.error.lowercased().hasPrefix("error:"), "got: \(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "one error line, got: \(result.error)")
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func listPipedIsAPlainTableWithTabsFlattenedAndNothingCut() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        try cli.run("add", "--title", "Tab\there", "--artist", "X", "--year", "2001")
        try cli.run("add", "--title", "Début", "--artist", "Björk", "--genre", "Pop", "--year", "1993")
        try cli.run("add", "--title", String(repeating: "A", count: 45), "--artist", "Y", "--genre", "Rock")
        try cli.run("select", "2")
        let listed = try cli.run("list")
        #expect(listed.status == 0, "\(listed.error)")
        let long = String(repeating: "A", count: 45)
        #expect(listed.output.split(separator: "\n").map(String.init) == [
            "   #  TITLE                                          ARTIST  YEAR  GENRE  COVER",
            "   1  Tab here                                       X       2001         none",
            "*  2  Début                                          Björk   1993  Pop    none",
            "   3  \(long)  Y             Rock   none",
        ])
    }

    @Test func commandsOnAMissingLibrarySayToInit() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let result = try cli.run("list")
        #expect(result.status != 0)
        #expect(result.error.hasPrefix("error:") && result.error.contains("albumkit init"))
    }

    @Test func eventsAreWrittenAsJSONLines() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let log = cli.folder.appendingPathComponent("events.jsonl")
        #expect(try cli.run("--events", log.path, "add", "--title", "T", "--artist", "A").status == 0)
        #expect(try cli.run("remove", "1", "--events", log.path).status == 0)
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        #expect(events.compactMap { $0["event"] as? String } == [
            "library.stateRestored", "library.albumAdded", "library.saved",
            "library.stateRestored", "library.albumRemoved", "library.saved",
        ])
        #expect(events.allSatisfy { ($0["time"] as? String)?.hasSuffix("Z") == true })
        #expect(events[1]["title"] as? String == "T" && events[1]["position"] as? Int == 1)
    }

    @Test func versionAndHelp() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("--version").output.hasPrefix("0."))
        let help = try cli.run("--help").output
        for command in ["init", "list", "show", "add", "update", "remove", "move", "undo", "redo", "select", "current", "import", "export", "config", "plugins"] {
            #expect(help.contains("  \(command)"), "help must list \(command)")
        }
    }
}
