import AlbumKit
import AlbumKitTesting
import Foundation
import KodiSource
import Testing

/// The Kodi source on `album.nfo` trees: SPEC 9's fields, tag names in any case, links not
/// followed, broken and hostile files refused.
@Suite struct KodiSourceTests {
    private func read(_ url: URL) async throws -> (albums: [AlbumRecord], warnings: [String]) {
        var albums: [AlbumRecord] = []
        var warnings: [String] = []
        for try await item in KodiSource().items(from: try SourceInput(at: url), context: SourceContext()) {
            if case .album(let record, _) = item { albums.append(record) }
            if case .warning(let message) = item { warnings.append(message) }
        }
        return (albums, warnings)
    }

    @Test func aTreeOfAlbumNFOsFollowsSPEC9() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.path("Music")
        try KodiFixture.library(in: root)
        try KodiFixture.write(KodiFixture.nfo(title: "Secret", artistDescription: "Outside"), to: "outside/album.nfo", in: folder.url)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Linked"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("Linked/album.nfo"), withDestinationURL: folder.path("outside/album.nfo"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("Elsewhere"), withDestinationURL: folder.path("outside"))

        #expect(KodiSource().match(try SourceInput(at: root)) == .specific)
        let read = try await read(root)
        #expect(read.albums.map(\.title) == ["OK Computer", "Collab & Co"])
        #expect(read.albums.map(\.artist) == ["Radiohead", "Artist One / Artist Two"])
        #expect(read.albums.map(\.genre) == ["Alternative", "Jazz"])
        #expect(read.albums.map(\.year) == ["1997", "2001"])
        #expect(read.albums.map(\.coverUrl) == ["https://assets.fanart.tv/okc.jpg", nil])
        #expect(read.albums.map { $0.id?.rawValue } == ["mb:0b6b4ba0-d36f-47bd-b4ea-6a5b91842d29", nil])
        #expect(read.warnings.count == 2 && read.warnings.allSatisfy { $0.contains("not followed") }, "\(read.warnings)")
        #expect(read.warnings.contains { $0.contains("Music/Elsewhere:") } && read.warnings.contains { $0.contains("Linked/album.nfo") }, "a linked folder is named too: \(read.warnings)")
    }

    @Test func oneAlbumNFOIsAnInputToo() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try KodiFixture.write(KodiFixture.nfo(title: "Solo", artistDescription: "Someone", year: "1980-05-01"), to: "album.nfo", in: folder.url)
        let file = folder.path("album.nfo")
        #expect(KodiSource().match(try SourceInput(at: file)) == .specific)
        #expect(try await read(file).albums.map(\.year) == ["1980"])
    }

    @Test func aFolderWithoutAlbumNFOsIsNotKodis() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try KodiFixture.write("x", to: "a/b/01.mp3", in: folder.url)
        #expect(KodiSource().match(try SourceInput(at: folder.url)) == .none)
    }

    @Test(arguments: [
        ("<album><title>Open", "ends inside <title>"),
        ("https://musicbrainz.org/release/0b6b4ba0", "not XML"),
        ("<artist><name>X</name></artist>", "not a Kodi album.nfo"),
        ("<album><title>T</title><year>nineteen</year></album>", "<year> 'nineteen' is not a year"),
        ("<!DOCTYPE album [<!ENTITY a \"aaaa\">]><album><title>&a;</title></album>", "internal subset"),
        ("<!DOCTYPE album SYSTEM \"/etc/passwd\"><album><title>&x;</title></album>", "unknown entity"),
    ])
    func aBrokenNFOIsAnErrorNamingFileAndLine(text: String, expected: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try KodiFixture.library(in: folder.url)
        try KodiFixture.write("\n" + text, to: "Zed/Bad/album.nfo", in: folder.url)
        do {
            _ = try await read(folder.url)
            Issue.record("no error")
        } catch let error as AlbumKitError {
            #expect(error.description.contains("Zed/Bad/album.nfo line 2") && error.description.contains(expected), "\(error)")
        }
    }
}

/// An NFO tree with links that loop (to a parent, to the root, to themselves) imports what lies
/// in it, follows no link, names each link it passes over, and ends.
@Suite struct KodiLinkLoopTests {
    @Test func linksThatLoopAreNamedAndNotFollowed() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let tree = cli.folder.appendingPathComponent("tree")
        let album = tree.appendingPathComponent("Bee Gees/Their Greatest Hits")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        let nfo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/real/kodi/bernmic-nforeader/album.nfo")
        try FileManager.default.copyItem(at: nfo, to: album.appendingPathComponent("album.nfo"))
        try FileManager.default.createSymbolicLink(atPath: album.appendingPathComponent("up").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("Bee Gees/root").path, withDestinationPath: tree.path)
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("self").path, withDestinationPath: "self")
        #expect(try cli.run("init", "--starter").status == 0)
        let before = try cli.listedAlbums().count
        let result = try cli.run("import", tree.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(try cli.listedAlbums().count == before + 1, "the one album.nfo, once")
        for link in ["Bee Gees/Their Greatest Hits/up", "Bee Gees/root", "self"] {
            #expect(result.error.contains("\(tree.appendingPathComponent(link).path): a link; not followed"), "\(link): \(result.error)")
        }
    }
}
