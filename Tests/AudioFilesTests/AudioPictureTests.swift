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

    /// Pictures past the one cover an album keeps are counted in the summary and the
    /// `--dry-run` plan's warnings, never dropped without a word (SPEC 9): a back cover and an
    /// artist picture beside the front cover in each format, a track whose cover is unlike the
    /// one its album took, a `cover.jpg` beside tracks that embed one. Tracks that embed their
    /// album's cover again are not counted.
    @Test func picturesPastTheCoverAreCountedInTheSummaryAndThePlan() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let more = [PlanEntry.Picture(seed: 31, type: 4), PlanEntry.Picture(seed: 32, type: 8)]
        var plan = ["mp3", "flac", "ogg", "m4a"].map { (format: String) -> PlanEntry in
            PlanEntry(path: "Many/01.\(format)", format: format, tags: .init(album: "Many in \(format)", albumartist: "P"), cover: 21, pictures: more)
        }
        // Three tracks that embed one cover, then one whose cover is another; and a cover.jpg.
        plan += (1...4).map { number in
            PlanEntry(path: "Unlike/0\(number).mp3", format: "mp3", tags: .init(album: "Unlike", albumartist: "U", tracknumber: "\(number)"), cover: number == 4 ? 23 : 22)
        }
        plan.append(.image("Unlike/cover.jpg", seed: 24))
        let (folder, covers) = try AudioCorpus.write(plan, in: cli.folder)
        #expect(try cli.run("init").status == 0)
        let expected = [
            "8 embedded pictures besides the one read as the cover (back covers, booklets, artists) not kept: an album keeps one cover (first: \(folder.path)/Many/01.",
            "1 track embeds a cover unlike the one its album took from an earlier track; not kept: an album keeps one cover (first: \(folder.path)/Unlike/04.mp3)",
            "1 folder image (cover.jpg, cover.jpeg, cover.png, folder.jpg, folder.jpeg, folder.png) not used: the albums beside it embed a cover (first: \(folder.path)/Unlike/cover.jpg)",
        ]
        let planned = try cli.run("import", "--dry-run", folder.path)
        #expect(planned.status == 0, "\(planned.error)")
        let imported = try cli.run("import", folder.path)
        #expect(imported.status == 0, "\(imported.error)")
        for run in [planned, imported] {
            for line in expected { #expect(run.error.contains(line), "\(line)\n\(run.error)") }
        }
        let albums = Dictionary(uniqueKeysWithValues: try cli.albums().map { ($0.title, $0) })
        for format in ["mp3", "flac", "ogg", "m4a"] {
            #expect(albums["Many in \(format)"]?.coverUrl == covers.png(21), "\(format): the front cover, not a later picture")
        }
        #expect(albums["Unlike"]?.coverUrl == covers.png(22), "the first track's cover")
    }
}
