import AlbumKitTesting
import Foundation
import Testing

/// End-to-end: folders and archives of real encoded, mutagen-tagged audio imported through
/// the `albumkit` binary, checked field by field against SPEC 9's mapping.
@Suite struct AudioImportTests {
    static let mbid = "9e5a8f6e-4f7e-4a3c-9d39-6f1f2d3c4b5a"
    static let flacMbid = "0b1c2d3e-0000-4000-8000-00000000f1ac"
    static let m4aMbid = "0b1c2d3e-0000-4000-8000-0000000004a4"

    /// Every format and tag version, two albums in one folder, a compilation, folder images.
    static let plan: [PlanEntry] = [
        .track("Rock Band/First Album/01.mp3", "mp3", .init(album: "First Album", albumartist: "Rock Band", artist: "Rock Band", genre: "Rock", date: "1999-05-02", mbid: mbid), cover: 1),
        .track("Rock Band/First Album/02.mp3", "mp3v23", .init(album: "First Album", albumartist: "Rock Band", artist: "Guest", genre: "Rock", date: "1999", mbid: mbid), cover: 1),
        .track("Rock Band/First Album/03.mp3", "mp3v23", .init(album: "First Album", albumartist: "Rock Band", artist: "Rock Band", genre: "Pop", date: "1999", mbid: mbid), cover: 1),
        // An embedded picture wins over the folder's image, which is then not stored at all.
        .image("Rock Band/First Album/cover.jpg", seed: 20),
        .track("Jazz/Blue.flac", "flac", .init(album: "Blue Notes", albumartist: "Quartet", artist: "Sax", genre: "Jazz", date: "2001-01-01", mbid: flacMbid), cover: 2),
        .track("Jazz/Green.ogg", "ogg", .init(album: "Green Ogg", albumartist: "Oggers", artist: "O", genre: "Ambient", date: "2002"), cover: 3),
        .track("M4A/late/a.m4a", "m4a", .init(album: "Late Moov", albumartist: "Apple", artist: "Apple", genre: "Folk", date: "2003-02-03T00:00:00Z", mbid: m4aMbid), cover: 4),
        .track("M4A/fast/a.m4a", "m4afast", .init(album: "Fast Start", artist: "Runner", genre: "Electronic", date: "2004"), cover: 5),
        .track("Compilation/01.mp3", "mp3", .init(album: "Hits", artist: "Singer One", genre: "Pop", date: "2010")),
        .track("Compilation/02.mp3", "flac", .init(album: "Hits", artist: "Singer Two", genre: "Pop", date: "2010")),
        .image("Compilation/folder.jpg", seed: 7),
        .image("Compilation/cover.jpg", seed: 6),
        .track("Old/01.mp3", "mp3v1", .init(album: "Old Times", artist: "Oldie", genre: "Blues", date: "1970")),
        .image("Old/Folder.JPG", seed: 8),
        .track("Untagged/x.mp3", "mp3", .init()),
        PlanEntry(path: "Notes/readme.txt", bytes: "not audio, not read"),
    ]

    /// What the plan must import as, by title.
    static func expected(_ covers: AudioCorpus.CoverPaths) -> [String: ListedAlbum] {
        let albums = [
            ListedAlbum(id: "mb:\(mbid)", title: "First Album", artist: "Rock Band", genre: "Rock", year: "1999", coverUrl: covers.png(1), cover: "stored"),
            ListedAlbum(id: "mb:\(flacMbid)", title: "Blue Notes", artist: "Quartet", genre: "Jazz", year: "2001", coverUrl: covers.png(2), cover: "stored"),
            ListedAlbum(id: "", title: "Green Ogg", artist: "Oggers", genre: "Ambient", year: "2002", coverUrl: covers.png(3), cover: "stored"),
            ListedAlbum(id: "mb:\(m4aMbid)", title: "Late Moov", artist: "Apple", genre: "Folk", year: "2003", coverUrl: covers.png(4), cover: "stored"),
            ListedAlbum(id: "", title: "Fast Start", artist: "Runner", genre: "Electronic", year: "2004", coverUrl: covers.png(5), cover: "stored"),
            ListedAlbum(id: "", title: "Hits", artist: "Various Artists", genre: "Pop", year: "2010", coverUrl: covers.jpg(6), cover: "stored"),
            ListedAlbum(id: "", title: "Old Times", artist: "Oldie", genre: "Blues", year: "1970", coverUrl: covers.jpg(8), cover: "stored"),
        ]
        return Dictionary(uniqueKeysWithValues: albums.map { ($0.title, $0) })
    }

    @Test(arguments: AudioCorpus.Container.allCases)
    func importsEveryFormatWithSpecMapping(_ container: AudioCorpus.Container) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let (folder, covers) = try AudioCorpus.write(Self.plan, in: cli.folder)
        let input = try AudioCorpus.pack(folder, as: container)
        try cli.run("init")

        let result = try cli.run("import", input.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("7 added"), "\(result.output)")
        #expect(result.output.contains("1 not albums skipped"), "\(result.output)")
        #expect(result.error.contains("Untagged/x.mp3") && result.error.contains("the track has no album tag: skipped, not an album"), "the track is named: \(result.error)")

        let albums = try cli.albums()
        let expected = Self.expected(covers)
        #expect(albums.count == expected.count)
        for album in albums {
            guard let wanted = expected[album.title] else {
                Issue.record("unexpected album \(album)")
                continue
            }
            // Albums without a MusicBrainz id get one from the pipeline.
            let id = wanted.id.isEmpty ? album.id : wanted.id
            #expect(album == ListedAlbum(id: id, title: wanted.title, artist: wanted.artist, genre: wanted.genre, year: wanted.year, coverUrl: wanted.coverUrl, cover: wanted.cover))
            if wanted.id.isEmpty { #expect(!album.id.hasPrefix("mb:")) }
        }
        // Stored content-addressed: exactly the covers albums name, nothing else.
        let stored = try FileManager.default.contentsOfDirectory(atPath: cli.libraryFolder.appendingPathComponent("covers").path)
        #expect(Set(stored.map { "covers/\($0)" }) == Set(expected.values.compactMap(\.coverUrl)))
    }

    @Test(arguments: [AudioCorpus.Container.folder, .tarGz])
    func importingTheSameInputTwiceGivesOnlyDuplicates(_ container: AudioCorpus.Container) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let input = try AudioCorpus.pack(try AudioCorpus.write(Self.plan, in: cli.folder).url, as: container)
        try cli.run("init")
        #expect(try cli.run("import", input.path).status == 0)
        let first = try cli.albums()

        let again = try cli.run("import", input.path)
        #expect(again.status == 0)
        #expect(again.output.contains("0 added, 7 skipped"), "\(again.output)")
        #expect(try cli.albums() == first)
    }

    @Test func dryRunShowsWhatWouldComeInAndWritesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let input = try AudioCorpus.pack(try AudioCorpus.write(Self.plan, in: cli.folder).url, as: .tarGz)
        try cli.run("init")
        let before = try cli.librarySnapshot()

        let result = try cli.run("import", "--dry-run", input.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Would import: 7 new"), "\(result.output)")
        #expect(try cli.librarySnapshot() == before)
        #expect(try cli.albums().isEmpty)
    }

    /// Archives made on a Mac carry AppleDouble files named like the tracks (`._01.mp3`,
    /// `__MACOSX/…`): metadata, not audio, so they are passed over rather than refused.
    @Test(arguments: [AudioCorpus.Container.folder, .zip])
    func macOSMetadataBesideTracksIsPassedOver(_ container: AudioCorpus.Container) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let appleDouble = "\u{0}\u{5}\u{16}\u{7}\u{0}\u{2}\u{0}\u{0}Mac OS X        "
        let plan: [PlanEntry] = [
            .track("Album/01.mp3", "mp3", .init(album: "From A Mac", albumartist: "M")),
            PlanEntry(path: "Album/._01.mp3", bytes: appleDouble),
            PlanEntry(path: "__MACOSX/Album/._01.mp3", bytes: appleDouble),
        ]
        let input = try AudioCorpus.pack(try AudioCorpus.write(plan, in: cli.folder).url, as: container)
        try cli.run("init")
        let result = try cli.run("import", input.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(try cli.albums().map(\.title) == ["From A Mac"])
    }

    /// Archives promise no order: the tracks of one folder may come apart, and still make
    /// one album counted from all of them.
    @Test func scatteredTracksOfAFolderStillMakeOneAlbum() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let plan: [PlanEntry] = [
            .track("A/1.mp3", "mp3", .init(album: "Scattered", albumartist: "S", genre: "Rock", date: "1990")),
            .track("B/1.mp3", "mp3", .init(album: "Between", albumartist: "B", genre: "Pop", date: "1991")),
            .track("A/2.mp3", "mp3", .init(album: "Scattered", albumartist: "S", genre: "Jazz", date: "1990")),
            .track("A/3.mp3", "mp3", .init(album: "Scattered", albumartist: "S", genre: "Jazz", date: "1990"), cover: 4),
        ]
        let folder = try AudioCorpus.write(plan, in: cli.folder)
        let archive = cli.folder.appendingPathComponent("scattered.tar")
        // tar writes the names in the order given: A, B, then A again.
        let run = try runProgram("/usr/bin/env", ["tar", "-cf", archive.path] + plan.map(\.path), in: folder.url)
        try #require(run.status == 0, "\(run.output)")
        try cli.run("init")
        #expect(try cli.run("import", archive.path).status == 0)

        let albums = try cli.albums()
        #expect(albums.map(\.title).sorted() == ["Between", "Scattered"])
        let scattered = albums.first { $0.title == "Scattered" }
        #expect(scattered?.genre == "Jazz")
        #expect(scattered?.coverUrl == folder.covers.png(4))
    }
}
