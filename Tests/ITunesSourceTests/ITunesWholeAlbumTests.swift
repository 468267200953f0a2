import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// `albumkit import Library.xml` fills the whole album (SPEC 9): rating, date added, ids and
/// every track with its other keys, and the album comes back whole from a bundle.
@Suite struct ITunesWholeAlbumTests {
    private func importedLibrary() throws -> (CLIRunner, CLIRunner.Result) {
        let cli = try CLIRunner()
        let file = cli.folder.appendingPathComponent("Library.xml")
        try LibraryXMLFixture.write([
            [
                "Album": "Kid A", "Artist": "Radiohead", "Name": "Everything In Its Right Place", "Track Number": 1, "Disc Number": 1,
                "Total Time": 251000, "Album Rating": 80, "Album Rating Computed": true, "Play Count": 12, "Genre": "Electronic",
                "Year": 2000, "Date Added": "date:2021-03-04T05:06:07", "path": "/Music/Radiohead/Kid A/01 Everything.mp3",
                "Artwork Checksum": "data:not text",
            ],
            ["Album": "Kid A", "Artist": "Radiohead", "Name": "Kid A", "Track Number": 2, "Total Time": 284500, "Album Rating": 80, "Rating": 100, "Genre": "Rock", "Year": 2000],
            ["Album": "Kid A", "Album Artist": "Radiohead", "Artist": "Thom Yorke", "Genre": "Electronic", "Album Rating": 60],
        ], to: file)
        #expect(try cli.run("init").status == 0)
        let imported = try cli.run("import", file.path)
        #expect(imported.status == 0, "\(imported.error)")
        return (cli, imported)
    }

    @Test func everyFieldAndTrackIsKept() throws {
        let (cli, imported) = try importedLibrary()
        defer { cli.remove() }
        let albums = try cli.listedAlbums()
        #expect(albums.count == 1)
        let album = albums.first ?? [:]
        #expect(album["genre"] as? String == "Electronic" && album["year"] as? String == "2000")
        #expect(album["rating"] as? Double == 4, "Album Rating 80 ÷ 20")
        #expect(album["added"] as? String == "2020-05-01T12:00:00Z", "the earliest Date Added of its tracks")
        #expect(album["ids"] as? [String: String] == ["itunes": "A1B2C3D4E5F60000"])
        #expect(album["fields"] == nil)
        let tracks = album["tracks"] as? [[String: Any]] ?? []
        #expect(tracks.map { $0["title"] as? String } == ["Everything In Its Right Place", "Kid A", "Track 2"])
        #expect(tracks.map { $0["number"] as? Int } == [1, 2, nil])
        #expect(tracks.map { $0["disc"] as? Int } == [1, nil, nil])
        #expect(tracks.map { $0["seconds"] as? Double } == [251, 284.5, 215], "the fixture gives every track 215 s but these two")
        #expect(tracks.map { $0["artist"] as? String } == [nil, nil, "Thom Yorke"], "only a track artist that is not the album's")
        #expect(tracks.map { ($0["ids"] as? [String: String])?["itunes"] } == ["A1B2C3D4E5F60000", "A1B2C3D4E5F60001", "A1B2C3D4E5F60002"])
        let fields = tracks.map { $0["fields"] as? [String: String] ?? [:] }
        #expect(fields.first == [
            "itunes.trackId": "1001", "itunes.kind": "MPEG audio file", "itunes.size": "4000000", "itunes.dateAdded": "2021-03-04T05:06:07Z",
            "itunes.bitRate": "256", "itunes.sampleRate": "44100", "itunes.trackType": "File", "itunes.albumRatingComputed": "true",
            "itunes.playCount": "12", "itunes.location": "file://localhost/Music/Radiohead/Kid%20A/01%20Everything.mp3",
        ])
        #expect(fields.dropFirst().first?["itunes.genre"] == "Rock", "a track's genre where it is not the album's")
        #expect(fields.dropFirst().first?["itunes.rating"] == "100")
        #expect(fields.last?["itunes.albumRating"] == "60", "an album rating that is not the album's")
        #expect(imported.error.contains("track keys whose value is data, an array or a dictionary not kept: 'Artwork Checksum' (1)"), "\(imported.error)")
    }

    @Test func theWholeAlbumComesBackFromABundle() throws {
        let (cli, _) = try importedLibrary()
        defer { cli.remove() }
        let problems = try cli.bundleRoundTripProblems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
