import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// A Kodi export through the built binary.
@Suite struct KodiCommandTests {
    @Test func importsTheTreeOnceThenOnlyDuplicatesAndFetchesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let root = cli.folder.appendingPathComponent("kodi-export")
        try KodiFixture.library(in: root)
        #expect(try cli.run("init").status == 0)
        #expect(try cli.run("import", "--dry-run", root.path).status == 0)
        #expect(try cli.listedAlbums().isEmpty, "a dry run writes nothing")
        let first = try cli.run("import", root.path)
        #expect(first.status == 0 && first.output.contains("2 added"), "\(first.output)\(first.error)")
        let albums = try cli.listedAlbums()
        #expect(albums.map { $0["title"] as? String } == ["OK Computer", "Collab & Co"])
        #expect(albums.first?["coverUrl"] as? String == "https://assets.fanart.tv/okc.jpg")
        #expect(albums.first?["cover"] as? String != "stored", "no network without --fetch-covers")
        let second = try cli.run("import", root.path)
        #expect(second.status == 0 && second.output.contains("0 added, 2 skipped"), "\(second.output)")
    }

    @Test func aBrokenNFOAnywhereImportsNothing() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let root = cli.folder.appendingPathComponent("kodi-export")
        try KodiFixture.library(in: root)
        try KodiFixture.write("<album><title>T</title><year>19x7</year></album>", to: "Zed/album.nfo", in: root)
        #expect(try cli.run("init", "--starter").status == 0)
        let before = try cli.listedAlbums().count
        let result = try cli.run("import", root.path)
        #expect(result.status != 0)
        let errors = result.errorLines
        #expect(errors.count == 1 && errors[0].contains("Zed/album.nfo line 1"), "\(result.error)")
        #expect(try cli.listedAlbums().count == before)
    }
}
