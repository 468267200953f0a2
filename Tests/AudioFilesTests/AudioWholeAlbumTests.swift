import AlbumKitTesting
import Foundation
import Testing

/// Audio encoded by real encoders (lame, flac, oggenc, ffmpeg's AAC) and tagged by mutagen as
/// Picard tags it imports whole (SPEC 9): one track per file with its length from TagLib's audio
/// properties, the label, catalog number, barcode, country, medium and MusicBrainz ids from the
/// tags — from a folder and from a stream of a `.tar.gz` alike — and comes back whole from a bundle.
@Suite struct AudioWholeAlbumTests {
    static let formats = ["mp3", "flac", "ogg", "m4a"]

    /// Three tracks per format, each format an album of its own.
    static let plan: [PlanEntry] = formats.enumerated().flatMap { index, format in
        (1...3).map { number in
            PlanEntry.track("\(format)/0\(number).\(format)", format, .init(
                album: "Album in \(format)", albumartist: "The Band", artist: number == 2 ? "Guest Singer" : "The Band", genre: number == 2 ? "Dub" : "Reggae",
                date: "1979-06-15", mbid: "00000000-0000-4000-8000-00000000000\(index)", title: "Song \(number) in \(format)",
                tracknumber: "\(number)/3", discnumber: "1/1", label: "Island", catalognumber: "ILPS 9560", barcode: "042284249623",
                country: "JM", media: "12\" Vinyl", releasegroupid: "11111111-0000-4000-8000-000000000001",
                trackid: "22222222-0000-4000-8000-00000000000\(number)", comment: "Ripped from vinyl", replaygain: "-6.\(number)0 dB"))
        }
    }

    private func imported(_ container: AudioCorpus.Container) throws -> CLIRunner {
        let cli = try CLIRunner()
        let (music, _) = try AudioCorpus.write(Self.plan, in: cli.folder)
        let input = try AudioCorpus.pack(music, as: container)
        #expect(try cli.run("init").status == 0)
        let result = try cli.run("import", input.path)
        #expect(result.status == 0, "\(result.error)")
        return cli
    }

    @Test(arguments: [AudioCorpus.Container.folder, .tarGz])
    func everyFileIsATrackWithItsLengthAndTheTagsFillTheAlbum(_ container: AudioCorpus.Container) throws {
        let cli = try imported(container)
        defer { cli.remove() }
        let albums = try cli.listedAlbums()
        #expect(Set(albums.compactMap { $0["title"] as? String }) == Set(Self.formats.map { "Album in \($0)" }))
        for album in albums {
            let title = album["title"] as? String ?? ""
            let format = String(title.split(separator: " ").last ?? "")
            #expect(album["genre"] as? String == "Reggae" && album["tags"] as? [String] == ["Dub"], "\(title): the other genre to tags")
            #expect(album["released"] as? String == "1979-06-15" && album["year"] as? String == "1979", "\(title)")
            #expect(album["label"] as? String == "Island", "\(title)")
            #expect(album["catalogNumber"] as? String == "ILPS 9560", "\(title)")
            #expect(album["barcode"] as? String == "042284249623", "\(title)")
            #expect(album["country"] as? String == "JM", "\(title)")
            #expect(album["format"] as? String == "12\" Vinyl", "\(title)")
            let index = Self.formats.firstIndex(of: format) ?? 0
            #expect(album["id"] as? String == "mb:00000000-0000-4000-8000-00000000000\(index)", "\(title)")
            #expect(album["ids"] as? [String: String] == [
                "musicbrainz": "00000000-0000-4000-8000-00000000000\(index)", "musicbrainzGroup": "11111111-0000-4000-8000-000000000001",
            ], "\(title)")
            let tracks = album["tracks"] as? [[String: Any]] ?? []
            #expect(tracks.map { $0["title"] as? String } == ["Song 1 in \(format)", "Song 2 in \(format)", "Song 3 in \(format)"], "\(title)")
            #expect(tracks.map { $0["number"] as? Int } == [1, 2, 3], "\(title)")
            #expect(tracks.map { $0["disc"] as? Int } == [1, 1, 1], "\(title)")
            #expect(tracks.map { $0["artist"] as? String } == [nil, "Guest Singer", nil], "\(title): only an artist that is not the album's")
            #expect(tracks.map { ($0["ids"] as? [String: String])?["musicbrainz"] } == [
                "22222222-0000-4000-8000-000000000001", "22222222-0000-4000-8000-000000000002", "22222222-0000-4000-8000-000000000003",
            ], "\(title)")
            #expect(tracks.map { ($0["fields"] as? [String: String])?["audio.file"] } == ["01.\(format)", "02.\(format)", "03.\(format)"], "\(title)")
            // sox makes 0.5 s of sound; encoders add a frame or two of padding.
            let seconds = tracks.map { $0["seconds"] as? Double ?? 0 }
            #expect(seconds.allSatisfy { (0.45...0.6).contains($0) }, "\(title): lengths \(seconds)")
        }
    }

    /// Nothing a file carries is dropped silently (SPEC 9): a comment and ReplayGain go to the
    /// track's `fields` (they were dropped without a word), a tag no field can hold is named in
    /// a warning.
    @Test func otherTagsAreKeptInTheTracksFieldsAndATagTooLongIsNamed() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let long = PlanEntry.track("long/01.mp3", "mp3", .init(album: "Long Notes", artist: "The Band", title: "Long", comment: String(repeating: "a", count: 70_000)))
        let (music, _) = try AudioCorpus.write(Self.plan + [long], in: cli.folder)
        #expect(try cli.run("init").status == 0)
        let result = try cli.run("import", music.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("tags not kept") && result.error.contains("'COMMENT' (1)"), "\(result.error)")
        for album in try cli.listedAlbums() where album["title"] as? String != "Long Notes" {
            let fields = (album["tracks"] as? [[String: Any]] ?? []).map { $0["fields"] as? [String: String] ?? [:] }
            #expect(fields.map { $0["audio.comment"] } == ["Ripped from vinyl", "Ripped from vinyl", "Ripped from vinyl"], "\(album["title"] ?? "")")
            #expect(fields.map { $0["audio.replaygainTrackGain"] } == ["-6.10 dB", "-6.20 dB", "-6.30 dB"], "\(album["title"] ?? ""): \(fields) \(result.error)")
        }
    }

    @Test func theWholeAlbumComesBackFromABundle() throws {
        let cli = try imported(.folder)
        defer { cli.remove() }
        let problems = try cli.bundleRoundTripProblems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
