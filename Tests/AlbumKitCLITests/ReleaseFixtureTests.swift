import AlbumKitTesting
import Foundation
import Testing

/// Libraries and a bundle written by the release before the whole album
/// (Tests/Fixtures/release-0.1-cd87d0e, its README says how they were made) open with every
/// album, the selection and the history; their first write upgrades them, and albums with
/// every field then live beside the old ones.
@Suite struct ReleaseFixtureTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/release-0.1-cd87d0e")

    private static let titles = "Best of Bowie|Rock\nIt's My Life|Ska punk\n...Nothing Like the Sun|Pop\nStaring at the Sun|Rock\nAmerican Pie|Pop\nLow|Art rock\n"

    @Test(arguments: ["json", "plist", "sqlite"])
    func anOldLibraryOpensWalksItsHistoryAndUpgrades(_ backend: String) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.useLibrary(copiedFrom: Self.fixtures.appendingPathComponent(backend))
        let environment = ["ALBUMKIT_STORAGE_BACKEND": backend]
        func list() throws -> String { try cli.run(["list", "--format", "$title|$genre"], environment: environment).output }
        #expect(try list() == Self.titles)
        #expect(try cli.run(["current"], environment: environment).output.contains("title:    It's My Life"))
        #expect(try cli.run(["redo"], environment: environment).status == 0, "the undone remove is redone")
        #expect(try list().split(separator: "\n").count == 5)
        #expect(try cli.run(["undo"], environment: environment).status == 0)
        let undone = try cli.run(["undo"], environment: environment)
        #expect(undone.status == 0 && undone.output.contains("It's My Life"), "\(undone.output)")
        #expect(try list().contains("It's My Life|Pop"), "the update of the old release is undone")
        #expect(try cli.run(["redo"], environment: environment).status == 0)
        let set = try cli.run(["update", "6", "--set", "label=RCA", "--set", "rating=4.5"], environment: environment)
        #expect(set.status == 0, "\(set.error)")
        let shown = try cli.run(["show", "6", "--json"], environment: environment).output
        #expect(shown.contains(#""label":"RCA""#) && shown.contains(#""rating":4.5"#), "\(shown)")
        #expect(try list() == Self.titles)
        #expect(try cli.run(["undo"], environment: environment).status == 0)
        #expect(try !cli.run(["show", "6", "--json"], environment: environment).output.contains("label"))
    }

    @Test func aVersionOneBundleRestoresAndImports() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let bundle = Self.fixtures.appendingPathComponent("backup-v1.tar.gz").path
        #expect(try cli.run("verify", bundle).status == 0)
        let restored = try cli.run("restore", bundle)
        #expect(restored.status == 0, "\(restored.error)")
        #expect(try cli.run("list", "--format", "$title|$genre").output == Self.titles)
        let export = cli.folder.appendingPathComponent("again.tar.gz").path
        #expect(try cli.run("export", export).status == 0)
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        tar.arguments = ["-xzOf", export, "manifest.json"]
        let pipe = Pipe()
        tar.standardOutput = pipe
        try tar.run()
        let written = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        tar.waitUntilExit()
        #expect(written.replacingOccurrences(of: " ", with: "").contains(#""version":2"#), "bundles are written as version 2: \(written)")
    }

    @Test func aBundleFromANewerAlbumkitIsRefusedAsSuch() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let folder = cli.folder.appendingPathComponent("v3")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"format":"albumkit-bundle","version":3,"albumCount":0}"#.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        try Data("[]".utf8).write(to: folder.appendingPathComponent("albums.json"))
        let refused = try cli.run("verify", folder.path)
        #expect(refused.status != 0 && (refused.output + refused.error).contains("was made by a newer albumkit (bundle version 3;"), "\(refused.output)")
        let restore = try cli.run("restore", folder.path)
        #expect(restore.status != 0 && restore.error.contains("was made by a newer albumkit"), "\(restore.error)")
    }
}

/// Libraries and a bundle of the release with the whole album, in its last format
/// (Tests/Fixtures/release-0.2-190b3e3, its README says how they were made): every field of
/// every album is read back, queries find them, and the history walks.
@Suite struct WholeAlbumReleaseFixtureTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/release-0.2-190b3e3")

    private static let format =
        "$position $title|$label|$catalogNumber|$format|$country|$barcode|$rating|$released|$added|$tags|$tracks|$mood|${discogs.folder}|${ids.discogs}|$cover"

    @Test(arguments: ["json", "plist", "sqlite"])
    func aLibraryOfThisReleaseKeepsEveryFieldAndWalksItsHistory(_ backend: String) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.useLibrary(copiedFrom: Self.fixtures.appendingPathComponent(backend))
        let environment = ["ALBUMKIT_STORAGE_BACKEND": backend]
        func run(_ arguments: String...) throws -> String { try cli.run(arguments, environment: environment).output }
        #expect(try run("list", "--format", Self.format) == Self.expected)
        let shown = (try JSONSerialization.jsonObject(with: Data(try run("show", "1", "--json").utf8)) as? [String: Any])?["album"] as? [String: Any]
        let tracks = shown?["tracks"] as? [[String: Any]]
        #expect(tracks?.map { $0["title"] as? String } == ["Xtal", "Tha"] && tracks?.first?["seconds"] as? Double == 291.5, "\(String(describing: shown))")
        #expect(shown?["notes"] as? String == "First pressing.\nSleeve worn." && (shown?["ids"] as? [String: String])?["musicbrainz"] != nil)
        #expect(try run("list", "--format", "$position $title", "label:warp") == "2 Music Has the Right to Children\n")
        #expect(try run("list", "--format", "$position $title", "CAFE") == "3 Café Tacvba\n")
        #expect(try run("current").contains("Music Has the Right to Children"))
        #expect(try cli.run(["redo"], environment: environment).status == 0, "the undone remove is redone")
        #expect(try run("list", "--format", "$title").split(separator: "\n") == ["Selected Ambient Works 85-92", "Music Has the Right to Children", "Low"])
        #expect(try cli.run(["undo"], environment: environment).status == 0)
        #expect(try cli.run(["undo"], environment: environment).status == 0, "the update is undone")
        let second = try run("show", "2", "--json")
        #expect(second.contains(#""format":"Vinyl""#) && !second.contains("mood"), "\(second)")
        #expect(try cli.run(["redo"], environment: environment).status == 0)
        #expect(try run("list", "--format", Self.format) == Self.expected)
    }

    @Test func aVersionTwoBundleOfThisReleaseRestoresEveryField() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let restored = try cli.run("restore", Self.fixtures.appendingPathComponent("backup-v2.tar.gz").path)
        #expect(restored.status == 0, "\(restored.error)")
        #expect(try cli.run("list", "--format", Self.format).output == Self.expected)
    }

    /// Every album as `list --format` ``format`` prints it.
    private static let expected = """
        1 Selected Ambient Works 85-92|Apollo|AMB 3922|CD|BE|5413356392224|5|1992-11-09|2024-03-01T10:00:00Z|ambient, idm|2|calm|Electronic|1234|none
        2 Music Has the Right to Children|Warp Records|WARPCD55||||4.5|||idm|1|dark|||none
        3 Café Tacvba||||MX||||||||||stored
        4 Low|RCA|||||4.5||||||||none

        """
}

extension CLIRunner {
    /// Makes the library folder a copy of `folder` (a committed fixture, left as it is).
    func useLibrary(copiedFrom folder: URL) throws {
        try FileManager.default.createDirectory(at: libraryFolder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder, to: libraryFolder)
    }
}
