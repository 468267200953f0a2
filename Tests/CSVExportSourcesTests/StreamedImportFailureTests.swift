import AlbumKit
import AlbumKitTesting
import DiscogsSource
import Foundation
import Testing

/// CSV exports carry no covers, so their albums go through the stages as they are read: an
/// input refused after the stages began (a later export, with `--strict`) ends them as after
/// their last album — a plugin's program finishes, not stopped — and writes nothing.
@Suite struct StreamedImportFailureTests {
    /// A stage plugin that passes every album and, once its input is closed (the import ended
    /// it), writes how many albums it saw to the file its first argument names.
    static let finishingPlugin = """
        import sys
        sys.path.insert(0, sys.argv[2])
        from albumkit_plugin import receive, send, start
        if start("stage", "finish-mark", "1.0.0") is not None:
            seen = 0
            while receive() is not None:
                seen += 1
                send({"type": "pass"})
            open(sys.argv[1], "w").write(f"finished after {seen}")
        """

    @Test func aLaterExportRefusedWithStrictEndsTheStagesAndWritesNothing() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/plugins").standardizedFileURL
        let script = folder.path("finish_mark.py")
        let marker = folder.path("finished.txt")
        try Data(Self.finishingPlugin.utf8).write(to: script)
        var configuration = Configuration(environment: [:])
        configuration.library = folder.path("library").path
        configuration.defaultFile = folder.path("config/albumkit/config.yaml").path
        configuration.plugins.commands = [
            ProcessPluginCommand(name: "finish-mark", kind: .stage, run: ["python3", script.path, marker.path, examples.path])
        ]
        configuration.importStages = ["validate", "normalize", "finish-mark", "dedupe", "covers"]
        var registry = AdapterRegistry.builtIn
        registry.register(DiscogsSource())
        try registry.registerProcessPlugins(of: configuration, environment: [:], hub: nil)
        let library = try await Library.create(configuration, registry: registry, hub: NotificationHub(), seed: .starter)

        let first = folder.path("first.csv")
        try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [
            ExportFixture.discogs(artist: "Nirvana", title: "Nevermind", released: "1991", id: "367084"),
            ExportFixture.discogs(artist: "Mono (2)", title: "Hymn To The Immortal Wind", released: "2009", id: "1722539"),
            ExportFixture.discogs(artist: "Low", title: "Things We Lost In The Fire", released: "2001", id: "11"),
        ], to: first)
        let second = folder.path("second.csv")
        try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [
            ExportFixture.discogs(artist: "A", title: "T", released: "1991", id: "abc"),
            ExportFixture.discogs(artist: "B", title: "U", released: "1992", id: "12"),
        ], to: second)
        let before = try await library.albums()
        let files = Self.contents(of: folder.path("library"))

        let error = await #expect(throws: AlbumKitError.self) {
            try await library.importAlbums(from: [first, second], options: ImportOptions(strict: true))
        }
        #expect(error?.description.contains("\(second.path) row 1 (line 2)") == true && error?.description.contains("--strict") == true, "\(String(describing: error))")
        #expect((try? String(contentsOf: marker, encoding: .utf8)) == "finished after 3", "the plugin was not ended: stopped instead")
        #expect(try await library.albums() == before)
        #expect(Self.contents(of: folder.path("library")) == files, "the library's files changed")
    }

    /// Every file under `folder`, by its path there.
    private static func contents(of folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        for name in (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? [] {
            if let bytes = try? Data(contentsOf: folder.appendingPathComponent(name)) { result[name] = bytes }
        }
        return result
    }
}
