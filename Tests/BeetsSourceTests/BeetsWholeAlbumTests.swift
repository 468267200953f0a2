import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// A real beets library (`beet import` of tagged audio, then `beet modify` for flexible
/// attributes) imports whole (SPEC 9): named fields, ids, items as tracks, every other
/// attribute in `fields` — and comes back whole from a bundle.
@Suite struct BeetsWholeAlbumTests {
    private func importedLibrary() throws -> (CLIRunner, BeetsFixture) {
        let beets = try BeetsFixture()
        #expect(try beets.beet("modify", "-a", "-y", "album:OK Computer", "mood=melancholic").status == 0)
        #expect(try beets.beet("modify", "-y", "album:OK Computer", "title:Track 1", "favourite=yes").status == 0)
        let cli = try CLIRunner()
        #expect(try cli.run("init").status == 0)
        let imported = try cli.run("import", beets.database.path)
        #expect(imported.status == 0, "\(imported.error)")
        return (cli, beets)
    }

    @Test func everyAttributeAndItemIsKept() throws {
        let (cli, beets) = try importedLibrary()
        defer { cli.remove(); beets.folder.remove() }
        let albums = try cli.listedAlbums()
        let album = albums.first { $0["title"] as? String == "OK Computer" } ?? [:]
        #expect(album["id"] as? String == "mb:0b6b4ba0-d36f-47bd-b4ea-6a5b91842d29")
        #expect(album["released"] as? String == "1997-05-21" && album["year"] as? String == "1997")
        #expect(album["label"] as? String == "Parlophone")
        #expect(album["catalogNumber"] as? String == "NODATA 02")
        #expect(album["country"] as? String == "GB")
        #expect(album["barcode"] as? String == "724385522925")
        #expect(album["format"] as? String == "CD", "the items' media: beets's albums have none")
        #expect((album["added"] as? String)?.hasSuffix("Z") == true, "beets's added, in UTC")
        #expect(album["ids"] as? [String: String] == [
            "musicbrainz": "0b6b4ba0-d36f-47bd-b4ea-6a5b91842d29", "musicbrainzGroup": "b1392450-e666-3926-a536-22c65f834433", "beets": "1",
        ])
        #expect(album["fields"] as? [String: String] == ["beets.mood": "melancholic", "beets.artpath": "Radiohead/OK Computer/cover.jpg"],
                "the flexible attribute, and the art's path")
        let tracks = album["tracks"] as? [[String: Any]] ?? []
        #expect(tracks.map { $0["title"] as? String } == ["Track 1", "Track 2"])
        #expect(tracks.map { $0["number"] as? Int } == [1, 2])
        #expect(tracks.map { $0["disc"] as? Int } == [1, 1])
        #expect(tracks.allSatisfy { ($0["seconds"] as? Double ?? 0) > 0 && $0["artist"] == nil })
        #expect(tracks.map { ($0["ids"] as? [String: String])?["beets"] } == ["1", "2"])
        let fields = tracks.map { $0["fields"] as? [String: String] ?? [:] }
        #expect(fields.map { $0["beets.favourite"] } == ["yes", nil], "an item's flexible attribute")
        #expect(fields.map { $0["beets.format"] } == ["MP3", "MP3"])
        #expect(fields.first?["beets.path"] == "Radiohead/OK Computer/01 Track 1.mp3")
        #expect(fields.allSatisfy { $0["beets.label"] == nil && $0["beets.album"] == nil && $0["beets.mood"] == nil }, "what is the album's stays the album's")
        let bjork = albums.first { $0["artist"] as? String == "Björk" } ?? [:]
        #expect(bjork["released"] as? String == "1997-09-22")
        #expect((bjork["tracks"] as? [[String: Any]])?.count == 2)
    }

    /// `beet export` JSON maps every field as the database does (it kept the core six only):
    /// the album export (`-a`) gives the albums' named fields, ids and flexible attributes; the
    /// track export (`-l`) those and the tracks, their flexible attributes included.
    @Test func beetExportMapsEveryFieldAsTheDatabaseDoes() throws {
        let (cli, beets) = try importedLibrary()
        defer { cli.remove(); beets.folder.remove() }
        let fromDatabase = try cli.listedAlbums()
        let albumKeys = ["title", "artist", "genre", "year", "released", "label", "catalogNumber", "country", "barcode", "added", "ids", "tags"]
        func picked(_ album: [String: Any], _ keys: [String]) -> String {
            keys.map { key in
                let value = album[key].map { ($0 as? [String: String]).map { "\($0.sorted(by: <))" } ?? "\($0)" }
                return "\(key)=\(value ?? "-")"
            }.joined(separator: " ")
                + " mood=\((album["fields"] as? [String: String])?["beets.mood"] ?? "-")"
        }
        for (flag, name) in [("-a", "albums.json"), ("-l", "tracks.json")] {
            let file = beets.folder.path(name)
            let exported = try beets.beet("export", flag, "-o", file.path)
            #expect(exported.status == 0, "\(exported.output)")
            let other = try CLIRunner()
            defer { other.remove() }
            #expect(try other.run("init").status == 0)
            let imported = try other.run("import", file.path)
            #expect(imported.status == 0, "\(imported.error)")
            let fromExport = try other.listedAlbums()
            let keys = flag == "-l" ? albumKeys + ["format"] : albumKeys
            #expect(fromExport.map { picked($0, keys) }.sorted() == fromDatabase.map { picked($0, keys) }.sorted(), "\(flag)")
            guard flag == "-l" else { continue }
            func tracks(_ albums: [[String: Any]]) -> [String] {
                albums.flatMap { $0["tracks"] as? [[String: Any]] ?? [] }.map { track in
                    let fields = track["fields"] as? [String: String] ?? [:]
                    return "\(track["title"] ?? "-") \(track["number"] ?? "-") \(track["disc"] ?? "-") \(track["ids"] ?? "-") "
                        + "\(fields["beets.favourite"] ?? "-") \(fields["beets.format"] ?? "-") \(fields["beets.bitrate"] == nil ? "-" : "bitrate")"
                }.sorted()
            }
            #expect(tracks(fromExport) == tracks(fromDatabase))
            #expect(tracks(fromExport).count == 5)
        }
    }

    /// What a `beet export` track export can and cannot say (README, beets): beets writes each
    /// track with its album's attributes, so an album attribute beets knows (`label`, `year`, …)
    /// is the album's even when one track was edited alone — the album takes the value most of
    /// its tracks have, as the database has it, and the odd track keeps its own — while a
    /// flexible attribute every track of the album has alike (set on the tracks, or the album's
    /// one track) cannot be told from the album's own and is read as the album's.
    @Test func aTrackExportGivesTheAlbumItsKnownAttributesAndWhatEveryTrackShares() throws {
        let beets = try BeetsFixture()
        defer { beets.folder.remove() }
        for change in [
            ["-a", "album:OK Computer", "mood=melancholic"], ["album:OK Computer", "rating=5"], ["album:OK Computer", "title:Track 1", "favourite=yes"],
            ["album:OK Computer", "title:Track 2", "label=Capitol"], ["album:Timeless", "play_count=3"],
        ] {
            let modified = try beets.beet(["modify", "-y"] + change)
            #expect(modified.status == 0, "\(change): \(modified.output)")
        }
        let file = beets.folder.path("tracks.json")
        #expect(try beets.beet("export", "-l", "-o", file.path).status == 0)
        func imported(_ input: URL) throws -> [String: [String: Any]] {
            let cli = try CLIRunner()
            defer { cli.remove() }
            #expect(try cli.run("init").status == 0)
            let result = try cli.run("import", input.path)
            #expect(result.status == 0, "\(result.error)")
            return Dictionary(try cli.listedAlbums().map { ($0["title"] as? String ?? "", $0) }) { first, _ in first }
        }
        func trackFields(_ album: [String: Any]?, _ name: String) -> [String?] {
            (album?["tracks"] as? [[String: Any]] ?? []).map { ($0["fields"] as? [String: String])?[name] }
        }
        let (fromDatabase, fromExport) = (try imported(beets.database), try imported(file))
        for albums in [fromDatabase, fromExport] {
            #expect(albums["OK Computer"]?["label"] as? String == "Parlophone", "the album's label, as most of its tracks have it")
            #expect(trackFields(albums["OK Computer"], "beets.label") == [nil, "Capitol"], "the track edited alone keeps its own")
            #expect(trackFields(albums["OK Computer"], "beets.favourite") == ["yes", nil])
            #expect((albums["OK Computer"]?["fields"] as? [String: String])?["beets.mood"] == "melancholic")
        }
        // The database knows whose each attribute is; the track export cannot tell.
        #expect(trackFields(fromDatabase["OK Computer"], "beets.rating") == ["5", "5"])
        #expect((fromDatabase["OK Computer"]?["fields"] as? [String: String])?["beets.rating"] == nil)
        #expect(trackFields(fromExport["OK Computer"], "beets.rating") == [nil, nil])
        #expect((fromExport["OK Computer"]?["fields"] as? [String: String])?["beets.rating"] == "5")
        #expect(trackFields(fromDatabase["Timeless"], "beets.playCount") == ["3"])
        #expect((fromExport["Timeless"]?["fields"] as? [String: String])?["beets.playCount"] == "3")
    }

    @Test func theWholeAlbumComesBackFromABundle() throws {
        let (cli, beets) = try importedLibrary()
        defer { cli.remove(); beets.folder.remove() }
        let problems = try cli.bundleRoundTripProblems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
