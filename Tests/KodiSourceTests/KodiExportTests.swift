import AlbumKitTesting
import Foundation
import Testing

/// `albumkit export DIR --format kodi` (SPEC 12): a Kodi tree imported, exported and imported
/// again into a new library gives the same albums, every field; the tree is Kodi's layout.
@Suite struct KodiExportTests {
    /// The JPEG magic and some bytes: a cover as covers are told, by their first bytes.
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("a kodi folder.jpg".utf8)

    /// A tree of the real `album.nfo` files of `Tests/Fixtures/real/kodi` and one written here
    /// with a cover beside it and names no file system takes as they are.
    private func tree(in folder: URL) throws -> URL {
        let tree = folder.appendingPathComponent("music")
        for fixture in RealFixture.all("kodi") {
            let copy = tree.appendingPathComponent(fixture.description)
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: fixture.url.appendingPathComponent("album.nfo"), to: copy.appendingPathComponent("album.nfo"))
        }
        let own = tree.appendingPathComponent("AC-DC/Live")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
            <album><title>Live: &lt;At&gt; "Donington" ...</title><artistdesc>AC/DC</artistdesc><genre>Rock</genre><year>1992</year></album>
            """.utf8).write(to: own.appendingPathComponent("album.nfo"))
        try Self.jpeg.write(to: own.appendingPathComponent("folder.jpg"))
        return tree
    }

    /// Every album of `list --json` with every field it has (its position aside), as sorted-key
    /// JSON, in title order.
    private func albums(_ cli: CLIRunner) throws -> [String] {
        try cli.listedAlbums().map { album in
            var album = album
            album["position"] = nil
            return String(decoding: try JSONSerialization.data(withJSONObject: album, options: [.sortedKeys]), as: UTF8.self)
        }.sorted()
    }

    @Test func aTreeImportedExportedAndImportedAgainGivesTheSameAlbums() throws {
        let first = try CLIRunner()
        defer { first.remove() }
        #expect(try first.run("init").status == 0)
        #expect(try first.run("import", try tree(in: first.folder).path).status == 0)
        let imported = try albums(first)
        #expect(imported.count == 4)
        let listed = try first.listedAlbums()
        #expect(listed.contains { $0["title"] as? String == "Live: <At> \"Donington\" ..." && $0["cover"] as? String == "stored" }, "the folder.jpg beside an album.nfo is its cover: \(listed)")
        let queen = try #require(listed.first { $0["title"] as? String == "The Queen Is Dead" })
        #expect(queen["label"] as? String == "Festival Records" && queen["rating"] as? Double == 5 && queen["released"] == nil && (queen["fields"] as? [String: String])?["kodi.releasedate"] == "1988-01-01", "\(queen)")
        #expect(queen["tags"] as? [String] == ["Rock/Pop", "Quirky"] && (queen["notes"] as? String)?.hasPrefix("The Queen Is Dead is the third") == true, "\(queen)")
        let tracks = queen["tracks"] as? [[String: Any]] ?? []
        #expect(tracks.count == 10 && tracks.first?["title"] as? String == "The Queen Is Dead" && tracks.first?["seconds"] as? Double == 384 && tracks.first?["number"] as? Int == 1, "\(tracks.first ?? [:])")
        #expect((queen["fields"] as? [String: String])?["kodi.releasetype"] == "album", "\(queen)")

        let out = first.folder.appendingPathComponent("kodi")
        let exported = try first.run("export", out.path, "--format", "kodi")
        #expect(exported.status == 0, "\(exported.error)")
        let live = out.appendingPathComponent("AC_DC/Live_ _At_ _Donington_ ... (1992)")
        #expect(FileManager.default.fileExists(atPath: live.appendingPathComponent("album.nfo").path), "\(FileManager.default.subpaths(atPath: out.path) ?? [])")
        #expect(FileManager.default.contents(atPath: live.appendingPathComponent("folder.jpg").path) == Self.jpeg)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("Bee Gees/Their Greatest Hits_ The Record (2001)/album.nfo").path))

        let second = try CLIRunner()
        defer { second.remove() }
        #expect(try second.run("init").status == 0)
        let again = try second.run("import", out.path)
        #expect(again.status == 0, "\(again.error)")
        #expect(try albums(second) == imported)
    }

    @Test func anExistingFolderIsReplacedOnlyWithForce() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init", "--starter").status == 0)
        let out = cli.folder.appendingPathComponent("kodi")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: out.appendingPathComponent("keep.txt"))
        let refused = try cli.run("export", out.path, "--format", "kodi")
        #expect(refused.status != 0 && refused.errorLines.count == 1, "\(refused.error)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("keep.txt").path))

        let forced = try cli.run("export", out.path, "--format", "kodi", "--force")
        #expect(forced.status == 0, "\(forced.error)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("keep.txt").path))
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).filter { $0.contains(".tmp-") }
        #expect(left.isEmpty, "\(left)")
    }
}
