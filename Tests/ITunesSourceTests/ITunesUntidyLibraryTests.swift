import AlbumKitTesting
import Foundation
import Testing

/// Real libraries are untidy (SPEC 9): album names with a line break or a tab, movies and
/// podcasts among the music. Each is imported through the `albumkit` binary.
@Suite struct ITunesUntidyLibraryTests {
    /// A line break in an album's name refused the whole library; it becomes one space, and the
    /// normalize stage makes a tab one space too.
    @Test func lineBreaksAndTabsInAlbumNamesAreRepaired() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = cli.folder.appendingPathComponent("Library.xml")
        try LibraryXMLFixture.write([
            ["Album": "OK\nComputer", "Artist": "Radiohead", "Year": 1997],
            ["Album": "Kid\tA", "Artist": "Radiohead\r\n", "Year": 2000],
        ], to: file)
        #expect(try cli.run("init").status == 0)
        let result = try cli.run("import", file.path)
        #expect(result.status == 0, "\(result.error)")
        let albums = try cli.listedAlbums()
        #expect(albums.map { $0["title"] as? String } == ["OK Computer", "Kid A"], "\(albums)")
        #expect(albums.map { $0["artist"] as? String } == ["Radiohead", "Radiohead"], "\(albums)")
    }

    /// Movies, TV shows, podcasts, audiobooks and music videos are no albums: skipped, and
    /// counted by what they are, by their media flags or by `Kind`.
    @Test func itemsThatAreNotMusicAreSkippedAndCounted() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = cli.folder.appendingPathComponent("Library.xml")
        try LibraryXMLFixture.write([
            ["Album": "In Rainbows", "Artist": "Radiohead", "Year": 2007],
            ["Album": "Some Film", "Artist": "A Director", "Kind": "MPEG-4 video file", "Movie": true],
            ["Album": "A Show", "Artist": "Network", "Kind": "MPEG-4 video file", "TV Show": true],
            ["Album": "Daily News", "Artist": "Host", "Kind": "MPEG audio file", "Podcast": true],
            ["Album": "A Novel", "Artist": "A Reader", "Kind": "Audible file"],
            ["Album": "In Rainbows", "Artist": "Radiohead", "Kind": "Purchased MPEG-4 video file", "Music Video": true, "Has Video": true],
            ["Album": "Trailer", "Artist": "Studio", "Kind": "QuickTime movie file"],
        ], to: file)
        #expect(try cli.run("init").status == 0)
        let result = try cli.run("import", file.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("1 added") && !result.output.contains("not albums skipped"), "\(result.output)")
        #expect(
            result.error.contains("6 items that are not music skipped (1 movie, 1 TV show, 1 podcast, 1 audiobook, 1 music video, 1 video)"),
            "\(result.error)")
        #expect(try cli.listedAlbums().map { $0["title"] as? String } == ["In Rainbows"])
    }

    /// A track with an empty `Name` is still a track of its album (it made the album be skipped):
    /// titled after its file, `Untitled` without one, and counted in the summary.
    @Test func aTrackWithoutANameIsTitledAfterItsFileAndCounted() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = cli.folder.appendingPathComponent("Library.xml")
        try LibraryXMLFixture.write([
            ["Name": "Packt Like Sardines", "Album": "Amnesiac", "Artist": "Radiohead", "Track Number": 1],
            ["Name": "", "Album": "Amnesiac", "Artist": "Radiohead", "Track Number": 2, "path": "/Music/Radiohead/Amnesiac/02 Pyramid Song.mp3"],
            ["Name": NSNull(), "Album": "Amnesiac", "Artist": "Radiohead", "Track Number": 3],
        ], to: file)
        #expect(try cli.run("init").status == 0)
        let result = try cli.run("import", "--strict", file.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("2 tracks without a Name titled after their files ('Untitled' without one)"), "\(result.error)")
        let albums = try cli.listedAlbums()
        #expect(albums.map { $0["title"] as? String } == ["Amnesiac"], "\(albums)")
        let tracks = albums.first?["tracks"] as? [[String: Any]] ?? []
        #expect(tracks.map { $0["title"] as? String } == ["Packt Like Sardines", "02 Pyramid Song", "Untitled"])
    }

    /// A track that cannot be part of an album is named and skipped, the rest imports, and the
    /// plan shows it; `--strict` refuses the library instead.
    @Test func aTrackWithoutAnAlbumIsSkippedAndNamedOrRefusedWithStrict() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = cli.folder.appendingPathComponent("Library.xml")
        try LibraryXMLFixture.write([
            ["Album": "Amnesiac", "Artist": "Radiohead", "Year": 2001],
            ["Name": "Voice Memo 3", "Album": "", "Artist": "Me"],
        ], to: file)
        #expect(try cli.run("init").status == 0)

        let strict = try cli.run("import", "--strict", file.path)
        #expect(strict.status != 0 && strict.errorLines.count == 1 && strict.errorLines[0].contains("track 1003 'Voice Memo 3'"), "\(strict.error)")
        #expect(try cli.listedAlbums().isEmpty)

        let dry = try cli.run("import", "--dry-run", file.path)
        #expect(dry.status == 0, "\(dry.error)")
        #expect(dry.output.contains("invalid") && dry.output.contains("track 1003 'Voice Memo 3'") && dry.output.contains("the track has no album name"), "\(dry.output)")
        #expect(dry.output.contains("1 new") && dry.output.contains("1 invalid"), "\(dry.output)")

        let result = try cli.run("import", file.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("warning: 1 record could not be an album and was skipped"), "\(result.error)")
        #expect(try cli.listedAlbums().map { $0["title"] as? String } == ["Amnesiac"])
    }
}
