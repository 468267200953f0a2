import AlbumKitTesting
import Foundation
import Testing

/// Tagged audio whose only picture is not marked as the front cover (a back cover, "other", a
/// leaflet page), as taggers and rippers write it: that picture is the album's cover (SPEC 9),
/// through the `albumkit` binary.
@Suite struct AudioPictureTests {
    @Test func aPictureOfAnyTypeIsTheCoverWhenNoFrontCoverIsThere() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let plan: [PlanEntry] = [
            // 4: back cover; 0: other; 6: media (a label side); 5: leaflet page.
            PlanEntry(path: "Back/01.mp3", format: "mp3", tags: .init(album: "Back Only", albumartist: "B", genre: "Rock", date: "1990"), cover: 11, coverType: 4),
            PlanEntry(path: "Other/01.flac", format: "flac", tags: .init(album: "Other Only", albumartist: "O", genre: "Jazz", date: "1991"), cover: 12, coverType: 0),
            PlanEntry(path: "Media/01.ogg", format: "ogg", tags: .init(album: "Media Only", albumartist: "M", genre: "Folk", date: "1992"), cover: 13, coverType: 6),
            PlanEntry(path: "Leaflet/01.mp3", format: "mp3v23", tags: .init(album: "Leaflet Only", albumartist: "L", genre: "Pop", date: "1993"), cover: 14, coverType: 5),
        ]
        let (folder, covers) = try AudioCorpus.write(plan, in: cli.folder)
        #expect(try cli.run("init").status == 0)
        let result = try cli.run("import", folder.path)
        #expect(result.status == 0, "\(result.error)")
        let albums = Dictionary(uniqueKeysWithValues: try cli.albums().map { ($0.title, $0) })
        for (title, seed) in [("Back Only", 11), ("Other Only", 12), ("Media Only", 13), ("Leaflet Only", 14)] {
            #expect(albums[title]?.coverUrl == covers.png(seed) && albums[title]?.cover == "stored", "\(title): \(String(describing: albums[title]))")
        }
    }
}
