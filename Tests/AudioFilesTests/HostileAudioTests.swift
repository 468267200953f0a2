import AlbumKitTesting
import Foundation
import Testing

/// End-to-end: hostile audio among good tracks, in a folder and in an archive. Each is
/// refused with one `error:` line naming the file, and the library stays byte for byte as
/// it was.
@Suite struct HostileAudioTests {
    enum Hostile: String, CaseIterable, Sendable, CustomStringConvertible {
        /// Random bytes named `.mp3`.
        case garbageNamedMP3
        /// A FLAC cut off inside its metadata (in its picture block).
        case truncatedFLAC
        /// An ID3v2 header that claims the largest tag ID3v2 can (256 MiB) over a few bytes.
        case hugeID3v2Tag
        /// An M4A whose `moov` atom claims 2 GiB.
        case hugeM4AAtom
        /// An M4A whose `moov` atom claims 2^62 bytes in a 64-bit size.
        case hugeM4A64BitAtom
        /// Ogg header pages (granule position 0) that never end, past the tag limit derived
        /// from a `limits.coverBytes` of 100 000.
        case endlessOggHeaders
        /// An album tag of 70 000 characters: longer than a field may be.
        case hugeAlbumTag
        /// A real picture of 300 000 bytes, over `limits.coverBytes` (set to 100 000).
        case coverOverLimit
        /// A FLAC claiming one metadata block of 16 MiB, over the tag limit derived from a
        /// `limits.coverBytes` of 100 000.
        case hugeFLACBlock

        var description: String { rawValue }

        /// The bad file's name.
        var fileName: String {
            switch self {
            case .garbageNamedMP3, .hugeID3v2Tag, .hugeAlbumTag, .coverOverLimit: "Album/02.mp3"
            case .truncatedFLAC, .hugeFLACBlock: "Album/02.flac"
            case .hugeM4AAtom, .hugeM4A64BitAtom: "Album/02.m4a"
            case .endlessOggHeaders: "Album/02.ogg"
            }
        }

        /// The text the error must hold, besides the file's name.
        var problem: String {
            switch self {
            case .garbageNamedMP3: "not audio"
            case .truncatedFLAC: "truncated"
            case .hugeID3v2Tag, .hugeM4AAtom, .hugeM4A64BitAtom, .hugeFLACBlock, .endlessOggHeaders: "takes more than"
            case .hugeAlbumTag: "album tag is longer than"
            case .coverOverLimit: "over limits.coverBytes"
            }
        }

        var environment: [String: String] {
            [.coverOverLimit, .hugeFLACBlock, .endlessOggHeaders].contains(self) ? ["ALBUMKIT_LIMITS_COVER_BYTES": "100000"] : [:]
        }

        /// The plan: one good track, then the bad file.
        var plan: [PlanEntry] {
            let good = PlanEntry.track("Album/01.mp3", "mp3", .init(album: "Album", albumartist: "Artist"), cover: 1)
            switch self {
            case .hugeAlbumTag:
                return [good, .track(fileName, "mp3", .init(album: String(repeating: "a", count: 70_000), albumartist: "Artist"))]
            case .coverOverLimit:
                return [good, PlanEntry(path: fileName, format: "mp3", tags: .init(album: "Album", albumartist: "Artist"), cover: 2, coverBytes: 300_000)]
            case .truncatedFLAC:
                return [good, PlanEntry(path: fileName, format: "flac", tags: .init(album: "Album", albumartist: "Artist"), cover: 2, coverBytes: 50_000)]
            default:
                return [good]
            }
        }

        /// Python run in the corpus folder after the plan is written, making the bad file.
        var script: String? {
            switch self {
            case .garbageNamedMP3:
                return "import random; random.seed(3); open('Album/02.mp3', 'wb').write(bytes(random.getrandbits(8) for _ in range(20000)))"
            case .truncatedFLAC:
                return "data = open('Album/02.flac', 'rb').read(); open('Album/02.flac', 'wb').write(data[:30000])"
            case .hugeID3v2Tag:
                return "open('Album/02.mp3', 'wb').write(b'ID3\\x04\\x00\\x00\\x7f\\x7f\\x7f\\x7f' + b'\\x00' * 1000)"
            case .hugeM4AAtom:
                return "import struct; open('Album/02.m4a', 'wb').write(struct.pack('>I4s4sI', 16, b'ftyp', b'M4A ', 0) + struct.pack('>I4s', 0x80000000, b'moov') + b'\\x00' * 1000)"
            case .hugeM4A64BitAtom:
                return "import struct; open('Album/02.m4a', 'wb').write(struct.pack('>I4s4sI', 16, b'ftyp', b'M4A ', 0) + struct.pack('>I4sQ', 1, b'moov', 1 << 62) + b'\\x00' * 1000)"
            case .endlessOggHeaders:
                return """
                    import struct
                    def page(segments, body):
                        return b'OggS' + bytes([0, 2]) + struct.pack('<QIII', 0, 1, 0, 0) + bytes([len(segments)]) + bytes(segments) + body
                    first = page([30], b'\\x01vorbis' + b'\\x00' * 23)
                    more = page([255] * 255, b'\\x00' * 255 * 255)
                    open('Album/02.ogg', 'wb').write(first + more * 40)
                    """
            case .hugeFLACBlock:
                return "open('Album/02.flac', 'wb').write(b'fLaC' + bytes([0x84, 0xff, 0xff, 0xff]) + b'\\x00' * 1000)"
            case .hugeAlbumTag, .coverOverLimit:
                return nil
            }
        }
    }

    @Test(arguments: Hostile.allCases, [AudioCorpus.Container.folder, .tarGz, .zip])
    func refusedWithTheLibraryUnchanged(_ hostile: Hostile, _ container: AudioCorpus.Container) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let folder = try AudioCorpus.write(hostile.plan, in: cli.folder).url
        if let script = hostile.script {
            let run = try runProgram("/usr/bin/env", ["python3", "-c", script], in: folder)
            try #require(run.status == 0, "\(run.output)")
        }
        let input = try AudioCorpus.pack(folder, as: container)
        try cli.run("init")
        let before = try cli.librarySnapshot()

        for arguments in [["import", "--dry-run", input.path], ["import", input.path]] {
            let result = try cli.run(arguments, environment: hostile.environment)
            #expect(result.status != 0)
            let errors = result.error.split(separator: "\n").filter { $0.lowercased().hasPrefix("error:") }
            #expect(errors.count == 1, "\(result.error)")
            #expect(errors.first?.contains(hostile.fileName) == true && errors.first?.contains(hostile.problem) == true, "\(result.error)")
        }
        #expect(try cli.librarySnapshot() == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cli.libraryFolder.path).filter { $0.contains("staging") }
        #expect(leftovers.isEmpty)
    }

    /// A symbolic link in a folder is never followed: a track it points to outside the input
    /// is not read, and the link is reported.
    @Test func symbolicLinksInAFolderAreNotFollowed() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let inside = try AudioCorpus.write([.track("Album/01.mp3", "mp3", .init(album: "Inside", albumartist: "A"))], in: cli.folder)
        let outside = try AudioCorpus.write([.track("x.mp3", "mp3", .init(album: "Outside", albumartist: "O"))], in: cli.folder, name: "outside")
        try FileManager.default.createSymbolicLink(
            at: inside.url.appendingPathComponent("Album/02.mp3"), withDestinationURL: outside.url.appendingPathComponent("x.mp3"))
        try cli.run("init")

        let result = try cli.run("import", inside.url.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("1 entry is not a regular file and was skipped"), "\(result.error)")
        #expect(try cli.albums().map(\.title) == ["Inside"])
    }

    /// 5 000 tracks of one album in a compressed archive: one album, in bounded memory
    /// (peak resident memory measured by GNU time).
    @Test func fiveThousandTracksMakeOneAlbumInBoundedMemory() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let plan = (1...5000).map { number in
            PlanEntry.track(
                "Box/\(String(format: "%04d", number)).mp3", "mp3",
                .init(album: "The Box", albumartist: "Everyone", artist: "Artist \(number % 7)", genre: number % 3 == 0 ? "Jazz" : "Rock", date: "2020"),
                cover: number == 4000 ? 9 : nil)
        }
        let written = try AudioCorpus.write(plan, in: cli.folder)
        let input = try AudioCorpus.pack(written.url, as: .tarGz)
        try cli.run("init")

        let environment = cli.environment.map { "\($0.key)=\($0.value)" }
        let run = try runProgram(
            "/usr/bin/env", environment + ["/usr/bin/time", "-f", "peak-rss-kb=%M", CLIRunner.binary.path, "import", input.path], in: cli.folder)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("album 'The Box' has 5000 tracks; the 4000 past the 1000 an album may have are not kept as tracks"), "\(run.output)")
        let peak = run.output.split(separator: "\n").compactMap { $0.split(separator: "=").last.flatMap { Int($0) } }.last
        #expect((peak ?? .max) < 64 * 1024, "peak resident memory \(peak ?? -1) KB")

        let albums = try cli.albums()
        #expect(albums.count == 1)
        #expect(albums.first.map { [$0.title, $0.artist, $0.genre, $0.year] } == ["The Box", "Everyone", "Rock", "2020"])
        #expect(albums.first?.coverUrl == written.covers.png(9))
    }
}
