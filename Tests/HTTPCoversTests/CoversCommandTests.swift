import AlbumKitTesting
import Foundation
import Testing

/// End-to-end: the `albumkit` binary fetching from the in-process server.
@Suite(.serialized) struct CoversCommandTests {
    private func states(_ cli: CLIRunner) throws -> [String] {
        let output = try cli.run("list", "--json").output
        let albums = (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["albums"] as? [[String: Any]]
        return albums?.compactMap { $0["cover"] as? String } ?? []
    }

    @Test func addFetchesAtOnceAndEventsComeInOrder() async throws {
        let server = try await TestCoverServer.start()
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let log = cli.folder.appendingPathComponent("events.jsonl")
        let added = try cli.run("--events", log.path, "add", "--title", "Low", "--artist", "Bowie", "--cover", server.url("/low.png"))
        await server.stop()
        #expect(added.status == 0, "\(added.error)")
        #expect(try states(cli) == ["stored"])
        let names = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["event"] as? String
        }
        #expect(names == ["library.stateRestored", "library.albumAdded", "cover.requested", "library.saved", "cover.fetched", "library.saved"])
        let show = try cli.run("show", "1", "--json").output
        #expect(show.contains("\"coverSha256\"") && show.contains("/covers/"))
    }

    @Test func importStaysOfflineUnlessAskedAndFetchIsCachedTheSecondTime() async throws {
        let server = try await TestCoverServer.start()
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let list = cli.folder.appendingPathComponent("albums.json")
        let albums = (0..<6).map { #"{"title": "T\#($0)", "artist": "A", "coverUrl": "\#(server.url("/c\($0 % 3).png"))"}"# }
            + [#"{"title": "Broken", "artist": "A", "coverUrl": "\#(server.url("/gone"))"}"#]
        try Data("[\(albums.joined(separator: ","))]".utf8).write(to: list)
        #expect(try cli.run("import", list.path).status == 0)
        #expect(server.totalRequests == 0, "import is offline without --fetch-covers")
        #expect(try states(cli) == Array(repeating: "missing", count: 7))
        let fetch = try cli.run("covers", "fetch")
        #expect(fetch.status == 3, "a failed cover ends covers fetch done in part")
        #expect(fetch.output.contains("3 fetched, 3 already stored, 1 failed"), "\(fetch.output)")
        #expect(fetch.error.split(separator: "\n").last?.hasPrefix("warning: 1 cover could not be fetched; the covers fetched are kept") == true, "\(fetch.error)")
        #expect(!fetch.error.contains("error:"), "the library changed: no error line (SPEC 7)")
        #expect(try states(cli) == Array(repeating: "stored", count: 6) + ["failed"])
        let status = try cli.run("covers", "status").output
        #expect(status.contains("404") && status.contains("stored 6, missing 0, failed 1"))
        let requests = server.totalRequests
        let again = try cli.run("covers", "fetch", "1", "2", "3", "4", "5", "6")
        #expect(again.status == 0 && again.output.contains("0 fetched, 6 already stored"))
        #expect(server.totalRequests == requests, "the cache-hit path makes no request")
        await server.stop()
    }

    @Test func importWithFetchCoversFetchesAfterCommitting() async throws {
        let server = try await TestCoverServer.start()
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let list = cli.folder.appendingPathComponent("albums.json")
        try Data(#"[{"title": "A", "artist": "B", "coverUrl": "\#(server.url("/a.png"))"}]"#.utf8).write(to: list)
        let result = try cli.run("import", "--fetch-covers", list.path)
        await server.stop()
        #expect(result.status == 0, "\(result.error)")
        #expect(try states(cli) == ["stored"])
    }

    @Test func fetchedCoversTravelInBackupsAndRestoreOffline() async throws {
        let server = try await TestCoverServer.start()
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        for index in 0..<3 {
            #expect(try cli.run("add", "--title", "T\(index)", "--artist", "A", "--cover", server.url("/b\(index).png")).status == 0)
        }
        await server.stop()
        let fetched = try states(cli)
        let status = try cli.run("covers", "status").output
        #expect(fetched == ["stored", "stored", "stored"], "\(status)")
        let bundle = cli.folder.appendingPathComponent("backup.tar.gz")
        let exported = try cli.run("export", bundle.path)
        #expect(exported.status == 0, "\(exported.error)")
        let elsewhere = try CLIRunner()
        defer { elsewhere.remove() }
        try elsewhere.run("init")
        let restored = try elsewhere.run("restore", bundle.path)
        #expect(restored.status == 0, "\(restored.error)")
        let restoredStates = try states(elsewhere)
        #expect(restoredStates == ["stored", "stored", "stored"], "the server is gone: the covers came in the bundle")
        #expect(try elsewhere.run("covers", "fetch").output.contains("0 fetched"))
    }

    @Test func aFileCoverOutsideTheRootsIsNeverOpened() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        // A FIFO: opening it for reading would block forever, so a finished command proves
        // it was never opened.
        let fifo = cli.folder.appendingPathComponent("trap.png")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let list = cli.folder.appendingPathComponent("albums.json")
        try Data(#"[{"title": "Trap", "artist": "A", "coverUrl": "\#(fifo.absoluteString)"}, {"title": "Passwd", "artist": "A", "coverUrl": "file:///etc/passwd"}]"#.utf8).write(to: list)
        let result = try cli.run("import", "--fetch-covers", list.path)
        #expect(result.status == 0, "the albums import; only their covers fail")
        #expect(result.error.contains("covers.fileRoots"))
        #expect(try states(cli) == ["failed", "failed"])
        #expect(try cli.run("covers", "status").output.contains("not under any of covers.fileRoots"))
    }

    /// A fetch killed mid-round keeps what landed before it was killed.
    @Test func eachFetchedCoverIsRecordedAsItLands() async throws {
        let server = try await TestCoverServer.start()
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let list = cli.folder.appendingPathComponent("albums.json")
        try Data(#"[{"title": "Fast", "artist": "A", "coverUrl": "\#(server.url("/fast.png"))"}, {"title": "Slow", "artist": "A", "coverUrl": "\#(server.url("/slow"))"}]"#.utf8)
            .write(to: list)
        #expect(try cli.run("import", list.path).status == 0)
        let fetch = try cli.start(["covers", "fetch"], environment: ["ALBUMKIT_COVERS_TIMEOUT_SECONDS": "60"])
        var landed = false
        let deadline = ContinuousClock.now + .seconds(15)  // the slow cover takes 30
        while !landed, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            landed = try states(cli).first == "stored"
        }
        kill(fetch.process.processIdentifier, SIGKILL)
        _ = try? fetch.wait()
        await server.stop()
        #expect(landed, "the fast cover must be recorded while the slow one is still being fetched")
        #expect(try states(cli) == ["stored", "missing"], "after the kill the fast cover is still there")
    }

    @Test func pruneDropsCoversNoAlbumUses() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        let covers = cli.libraryFolder.appendingPathComponent("covers")
        let orphan = Data(TestCoverServer.png)
        let name = covers.appendingPathComponent(CoverKeyName.of(orphan))
        try orphan.write(to: name)
        #expect(try cli.run("remove", "1").status == 0)
        let pruned = try cli.run("covers", "prune")
        #expect(pruned.output.contains("Removed 1 unused cover, freeing \(orphan.count) B."), "\(pruned.output)")
        #expect(!FileManager.default.fileExists(atPath: name.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: covers.path).count == 5, "the removed album's cover stays while undo can bring it back")
        #expect(try cli.run("undo").status == 0)
        #expect(try states(cli) == Array(repeating: "stored", count: 5))
    }
}

import AlbumKit

/// The store file name bytes get.
enum CoverKeyName {
    static func of(_ bytes: Data) -> String { CoverKey(bytes: bytes, fileExtension: "png").fileName }
}
