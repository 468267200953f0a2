import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// `albumkit import Library.xml` through the built binary: what comes in, that a second import
/// gives only duplicates, covers under `covers.fileRoots`, dry runs, and hostile files.
@Suite struct ITunesCommandTests {
    @Test func importsALibraryOnceAndTheSecondTimeOnlyDuplicates() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let music = cli.folder.appendingPathComponent("Music/Radiohead/OK Computer")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try LibraryXMLFixture.jpeg.write(to: music.appendingPathComponent("cover.jpg"))
        try Data("covers:\n  fileRoots: [\(cli.folder.appendingPathComponent("Music").path)]\n".utf8)
            .write(to: cli.folder.appendingPathComponent("albumkit.yaml"))
        let file = cli.folder.appendingPathComponent("Library.xml")
        try LibraryXMLFixture.write([
            ["Album": "OK Computer", "Artist": "Radiohead", "Genre": "Rock", "Year": 1997, "path": music.appendingPathComponent("01 Airbag.mp3").path],
            ["Album": "OK Computer", "Artist": "Radiohead", "Genre": "Rock", "Year": 1997, "path": music.appendingPathComponent("02 Paranoid Android.mp3").path],
            ["Album": "Hits & Misses", "Artist": "X", "Compilation": true, "Year": 2001],
            ["Name": "no album"],
        ], to: file)
        #expect(try cli.run("init").status == 0)

        let dry = try cli.run("import", "--dry-run", file.path)
        #expect(dry.status == 0 && dry.output.contains("2 new"), "\(dry.output)\(dry.error)")
        #expect(dry.output.contains("'OK Computer' by Radiohead (1997)"), "the plan names each album: \(dry.output)")
        #expect(try cli.listedAlbums().isEmpty, "a dry run writes nothing")
        let covers = cli.libraryFolder.appendingPathComponent("covers").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: covers)) ?? []).isEmpty, "nor stores a cover")

        let first = try cli.run("import", file.path)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.contains("2 added"), "\(first.output)")
        #expect(first.error.contains("track 1007 'no album': the track has no album name: skipped, not an album"), "\(first.error)")
        #expect(first.output.contains("1 not albums skipped"), "\(first.output)")
        let listed = try cli.listedAlbums()
        #expect(listed.map { $0["title"] as? String } == ["OK Computer", "Hits & Misses"])
        #expect(listed.map { $0["artist"] as? String } == ["Radiohead", "Various Artists"])
        #expect(listed.map { $0["id"] as? String } == ["itunes:A1B2C3D4E5F60000", "itunes:A1B2C3D4E5F60002"])
        #expect(listed.map { $0["cover"] as? String } == ["stored", "none"])

        let second = try cli.run("import", file.path)
        #expect(second.status == 0 && second.output.contains("0 added, 2 skipped"), "\(second.output)")
        #expect(try cli.listedAlbums().count == 2)
    }

    @Test(arguments: ["entity bomb", "external entity", "garbage", "wrong type", "100 MB line"])
    func hostileLibrariesAreRefusedWithOneErrorAndNothingWritten(kind: String) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init", "--starter").status == 0)
        let before = try cli.listedAlbums().count
        let secret = cli.folder.appendingPathComponent("secret.txt")
        try Data("TOP-SECRET".utf8).write(to: secret)
        let file = cli.folder.appendingPathComponent("Library.xml")
        let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let body = "<plist version=\"1.0\">\n<dict>\n<key>Tracks</key>\n<dict>\n<key>1</key>\n<dict><key>Album</key><string>&x;</string><key>Persistent ID</key><string>AB</string></dict>\n</dict>\n</dict>\n</plist>\n"
        switch kind {
        case "entity bomb":
            try Data((header + "<!DOCTYPE plist [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY x \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n" + body).utf8).write(to: file)
        case "external entity":
            try Data((header + "<!DOCTYPE plist SYSTEM \"\(secret.path)\">\n" + body).utf8).write(to: file)
        case "garbage":
            try (Data((header + "<plist version=\"1.0\"><dict><key>Tracks</key>").utf8) + Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })).write(to: file)
        case "100 MB line":
            try Data((header + "<plist version=\"1.0\">\n<dict>\n<key>Tracks</key>\n<dict>\n<key>1</key>\n<dict><key>Album</key><string>").utf8).write(to: file)
            let handle = try FileHandle(forWritingTo: file)
            try handle.seekToEnd()
            let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<100 { try handle.write(contentsOf: chunk) }
            try handle.write(contentsOf: Data(body.utf8))
            try handle.close()
        default:
            try LibraryXMLFixture.write([["Album": "Fine", "Artist": "A"], ["Album": ["not", "a", "string"], "Artist": "B"]], to: file)
        }
        let result = try cli.run("import", file.path)
        #expect(result.status != 0)
        let lines = result.errorLines
        #expect(lines.count == 1 && lines[0].contains(file.path) && lines[0].contains("line "), "\(result.error)")
        #expect(!result.error.contains("TOP-SECRET") && !result.output.contains("TOP-SECRET"))
        #expect(try cli.listedAlbums().count == before, "nothing imported")
    }
}
