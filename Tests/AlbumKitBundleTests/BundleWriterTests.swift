@testable import AlbumKit
@testable import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// What `BundleWriter` promises beyond the round trip: a stream longer than every buffer it
/// recycles comes out whole in each compression, and `checksums.sha256` names exactly the
/// covers written, each with the digest of the bytes written.
@Suite struct BundleWriterTests {
    /// 70 covers of 300 KB of random bytes: 21 MB, more than two batches of covers read ahead,
    /// the compressor's queue of tar blocks many times over, a 1 MiB output block, and the
    /// 16 MiB after which writeback starts.
    @Test(arguments: [BundleCompression.zstd, .gzip, .xz, .none])
    func aLongStreamComesOutWhole(_ compression: BundleCompression) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await LibraryFixture.make(in: workspace).library
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? random.close() }
        var covers: [CoverKey: Data] = [:]
        for index in 0..<70 {
            let bytes = try #require(try random.read(upToCount: 300_000))
            covers[try await library.storage.covers.put(bytes, fileExtension: index % 2 == 0 ? "jpg" : "png")] = bytes
        }
        let bundle = workspace.path("backup.tar" + [BundleCompression.zstd: ".zst", .gzip: ".gz", .xz: ".xz", .none: ""][compression]!)
        try await BundleWriter(compression: compression, generator: "test").write(library.contents(of: try await library.snapshot()), to: bundle)

        if compression == .zstd { #expect(try runProgram("/usr/bin/zstd", ["-q", "-t", bundle.path]).status == 0) }
        let folder = try extract(bundle, in: workspace)
        let extracted = Workspace.contents(of: folder).filter { $0.key != "covers/" }
        #expect(extracted.count == 4 + 1 + covers.count, "manifest, albums, state, checksums, the old cover and the new ones")
        for (key, bytes) in covers where extracted[key.bundlePath] != bytes {
            Issue.record("\(key.bundlePath) differs from the stored bytes")
        }
        let check = try runProgram("/usr/bin/sha256sum", ["-c", "--strict", "checksums.sha256"], in: folder)
        #expect(check.status == 0, "\(check.output)")
        #expect(try await BundleVerifier.problems(in: bundle, limits: Limits()).isEmpty)
        // The tar stream ends in its two zero blocks: nothing left over from a recycled buffer.
        let unpack = [BundleCompression.zstd: "zstd -dc", .gzip: "gzip -dc", .xz: "xz -dc", .none: "cat"][compression]!
        #expect(try runProgram("/bin/sh", ["-c", "\(unpack) '\(bundle.path)' > stream.tar"], in: workspace.url).status == 0)
        let stream = try Data(contentsOf: workspace.path("stream.tar"))
        #expect(stream.count % 512 == 0 && stream.count > 21_000_000 && stream.suffix(1024).allSatisfy { $0 == 0 })
        // A plain tar is padded to whole 10 KiB records, as tar writes one.
        #expect(compression != .none || stream.count % 10240 == 0, "\(stream.count) bytes")
    }

    /// `albums.json` is compressed as it is written, into a part of its own that the file takes
    /// whole between the manifest with the list's header (compressed alone) and the rest: three
    /// zstd frames, one stream to every reader. Each tool unpacks the same entries in bundle
    /// order, and the list holds the albums in library order.
    @Test(arguments: [BundleCompression.zstd, .gzip, .xz])
    func theAlbumListIsAPartOfItsOwn(_ compression: BundleCompression) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await LibraryFixture.make(in: workspace).library
        let albums = try (0..<1500).map { try Album(id: AlbumID("a\($0)"), title: "Album \($0) ✓", artist: "Artist \($0 % 40)") }
        try await library.replaceAll(with: LibrarySnapshot(albums: albums))
        let ending = [BundleCompression.zstd: "zst", .gzip: "gz", .xz: "xz"][compression]!
        let bundle = workspace.path("backup.tar.\(ending)")
        try await BundleWriter(compression: compression, generator: "test").write(library.contents(of: try await library.snapshot()), to: bundle)

        if compression == .zstd {
            let listing = try runProgram("/usr/bin/zstd", ["-l", bundle.path])
            let frames = listing.output.split(separator: "\n").dropFirst().first?.split(separator: " ").first
            #expect(listing.status == 0 && frames == "3", "\(listing.output)")
        }
        let test = [BundleCompression.zstd: "zstd -q -t", .gzip: "gzip -t", .xz: "xz -t"][compression]!
        #expect(try runProgram("/bin/sh", ["-c", "\(test) '\(bundle.path)'"]).status == 0)
        let names = ["manifest.json", "albums.json", "state.json"]
        for lister in [["/bin/tar", "-tf"], ["/usr/bin/bsdtar", "-tf"]] {
            let listed = try runProgram(lister[0], [lister[1], bundle.path])
            let entries = listed.output.split(separator: "\n").map(String.init)
            #expect(listed.status == 0 && Array(entries.prefix(3)) == names && entries.last == ChecksumList.entryName, "\(lister[0]): \(entries.prefix(4))")
        }
        if compression != .zstd {
            let python = "import sys, tarfile; print(' '.join(tarfile.open(sys.argv[1]).getnames()[:3]))"
            let read = try runProgram("/usr/bin/python3", ["-c", python, bundle.path])
            #expect(read.output.trimmingCharacters(in: .whitespacesAndNewlines) == names.joined(separator: " "), "\(read.output)")
        }
        let folder = try extract(bundle, in: workspace)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("albums.json"))) as? [[String: Any]])
        #expect(list.compactMap { $0["id"] as? String } == albums.map(\.id.rawValue))
        #expect(try runProgram("/usr/bin/sha256sum", ["-c", "--strict", "checksums.sha256"], in: folder).status == 0)
        #expect(try await BundleVerifier.problems(in: bundle, limits: Limits()).isEmpty)
    }

    /// A plain tar is a whole number of 10 KiB records, as tar writes one, however many
    /// blocks it took.
    @Test(arguments: [1, 7, 13]) func aPlainTarIsWholeRecords(_ count: Int) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await LibraryFixture.make(in: workspace).library
        for index in 0..<count {
            _ = try await library.storage.covers.put(Data(repeating: UInt8(index), count: 100_000), fileExtension: "png")
        }
        let bundle = workspace.path("backup.tar")
        try await BundleWriter(compression: .none, generator: "test").write(library.contents(of: try await library.snapshot()), to: bundle)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: bundle.path)[.size] as? Int)
        #expect(size % 10240 == 0 && size > count * 100_000, "\(size) bytes")
        #expect(try runProgram("/bin/tar", ["-tf", bundle.path]).status == 0)
    }

    /// A key the store has no bytes for (here in the second batch read) is left out of the
    /// archive and of `checksums.sha256`; a stored cover whose bytes changed on disk is written
    /// with the digest of its bytes, so `sha256sum -c` passes and the verifier names it.
    @Test func checksumsNameWhatWasWritten() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await LibraryFixture.make(in: workspace).library
        let store = library.storage.covers
        var kept: [CoverKey] = []
        for index in 0..<40 { kept.append(try await store.put(Data("kept cover \(index)".utf8), fileExtension: "jpg")) }
        let changed = try await store.put(Data("changed cover".utf8), fileExtension: "png")
        let absent = CoverKey(bytes: Data("never stored".utf8), fileExtension: "jpg")
        let damaged = Data("bytes changed on disk".utf8)
        try damaged.write(to: URL(fileURLWithPath: try #require(store.location(of: changed))))
        let bundle = workspace.path("backup.tar.zst")
        let keys = Array(kept[..<35]) + [absent] + kept[35...] + [changed]
        try await BundleWriter(compression: .zstd, generator: "test").write(library.contents(of: try await library.snapshot()), keys: keys, to: bundle)

        let folder = try extract(bundle, in: workspace)
        let entries = try runProgram("/bin/tar", ["-tf", bundle.path]).output.split(separator: "\n").map(String.init)
        #expect(entries == ["manifest.json", "albums.json", "state.json"] + kept.map(\.bundlePath) + [changed.bundlePath, "checksums.sha256"])
        let lines = try String(contentsOf: folder.appendingPathComponent("checksums.sha256"), encoding: .utf8).split(separator: "\n")
        #expect(lines.suffix(41) == kept.map { "\($0.sha256)  \($0.bundlePath)" } + ["\(SHA256Digest.hex(of: damaged))  \(changed.bundlePath)"])
        let check = try runProgram("/usr/bin/sha256sum", ["-c", "--strict", "checksums.sha256"], in: folder)
        #expect(check.status == 0, "\(check.output)")
        // (It also names the fixture's own cover, which `keys` left out.)
        let problems = try await BundleVerifier.problems(in: bundle, limits: Limits())
        #expect(problems.filter { $0.contains("\(changed.bundlePath): the cover's bytes hash to \(SHA256Digest.hex(of: damaged))") }.count == 1, "\(problems)")
    }

    /// A store (a plugin's) that answers a batch with fewer covers than were asked for stops
    /// the export with an error naming it, and no archive is left.
    @Test func aStoreThatAnswersShortStopsTheExport() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await LibraryFixture.make(in: workspace).library
        let store = ShortAnswers(folder: workspace.path("library/covers"))
        let bundle = workspace.path("backup.tar.gz")
        let storage = library.storage
        let contents = ExportContents(snapshot: try await library.snapshot(), covers: store, steps: { try await storage.steps($0) })
        let error = await #expect(throws: AlbumKitError.self) { try await BundleWriter(compression: .gzip, generator: "test").write(contents, to: bundle) }
        #expect(error?.description.contains("the cover store answered 0 of 1 covers asked for") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).allSatisfy { !$0.hasPrefix(".backup") }, "no temporary file is left")
    }

    /// A compressed stream given up mid-way (an album read failed) writes nothing more to its
    /// file: freeing the compressor does not close the stream and flush its end into a
    /// descriptor its owner has let go of — and may already have closed, its number reused.
    @Test(arguments: [BundleCompression.zstd, .gzip, .xz])
    func anAbandonedStreamWritesNothingMore(_ compression: BundleCompression) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let path = workspace.path("part").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let abandoned: off_t
        do {
            let compressor = try CompressorThread(descriptor: descriptor, path: path, compression: compression)
            let text = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
            try text.withUnsafeBytes { try compressor.write($0) }
            compressor.abandon()
            abandoned = lseek(descriptor, 0, SEEK_END)
        }
        #expect(lseek(descriptor, 0, SEEK_END) == abandoned, "the compressor, freed, wrote after it was abandoned")
    }

    /// The compressor holds the owner of the descriptor it writes to, so the owner (the album
    /// list's scratch file) closes it only after the compressor is gone — not while the
    /// compressing thread may still write to that descriptor number.
    @Test func theCompressorKeepsItsFileOpen() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var file: ScratchFile? = try ScratchFile(in: workspace.url)
        weak let watched = file
        var compressor: CompressorThread? = try CompressorThread(
            descriptor: file!.descriptor, owner: file, path: workspace.url.path, compression: .zstd)
        file = nil
        #expect(watched != nil, "the file outlives the owner's own reference while the compressor lives")
        try Data(count: 4096).withUnsafeBytes { try compressor!.write($0) }
        try compressor!.finish()
        #expect(compressor!.bytesWritten > 0)
        compressor = nil
        #expect(watched == nil, "and goes with the compressor")
    }

    /// Batches of small covers grow to `largestBatch`, batches of large ones shrink to one cover,
    /// and a batch in between keeps its size.
    @Test func batchesFollowTheSizeOfTheCovers() {
        var size = CoverBatches.firstBatch
        var sizes: [Int] = []
        for _ in 0..<6 {
            size = CoverBatches.size(after: size, holding: size * 600)
            sizes.append(size)
        }
        #expect(sizes == [64, 128, 256, 512, 512, 512], "600-byte covers")
        #expect(CoverBatches.size(after: 32, holding: 32 * 30_000) == 32, "30 KB covers")
        size = 32
        sizes = []
        for _ in 0..<7 {
            size = CoverBatches.size(after: size, holding: size * 5_000_000)
            sizes.append(size)
        }
        #expect(sizes == [16, 8, 4, 2, 1, 1, 1], "5 MB covers")
    }

    private func extract(_ bundle: URL, in workspace: Workspace) throws -> URL {
        let folder = workspace.path("extracted")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try runProgram("/bin/tar", ["-xf", bundle.path, "-C", folder.path])
        guard result.status == 0 else { throw FixtureError(result.output) }
        return folder
    }
}

/// The folder store, but a batch read drops its last answer: what a broken plugin's store does.
private struct ShortAnswers: CoverStore {
    let files: DirectoryCoverStore

    init(folder: URL) { files = DirectoryCoverStore(folder: folder) }

    func put(_ bytes: Data, fileExtension: String) async throws -> CoverKey { try await files.put(bytes, fileExtension: fileExtension) }
    func data(for key: CoverKey) async throws -> Data? { try await files.data(for: key) }
    func data(for keys: [CoverKey]) async throws -> [Data?] { Array(try await files.data(for: keys).dropLast()) }
    func contains(_ key: CoverKey) async throws -> Bool { try await files.contains(key) }
    func keys() async throws -> [CoverKey] { try await files.keys() }
    func remove(_ key: CoverKey) async throws -> Int { try await files.remove(key) }
}
