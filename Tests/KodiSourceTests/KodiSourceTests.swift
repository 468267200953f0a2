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
        #expect(read.warnings.count == 1 && read.warnings[0].contains("Linked/album.nfo") && read.warnings[0].contains("not followed"))
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
