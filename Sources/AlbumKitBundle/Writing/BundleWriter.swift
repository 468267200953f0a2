import AlbumKit
import Crypto
import Foundation

/// Writes a library as a bundle (SPEC 3): `manifest.json` first, then `albums.json`,
/// `state.json`, every cover once, and `checksums.sha256` last — streaming, two small batches of
/// covers in memory at a time (``CoverBatches``), to a temporary name renamed into place when
/// complete. Its memory does not grow with the library beyond the cover keys: the albums are
/// read a run at a time into `albums.json`'s compressed part (``AlbumListPart``), and a cover's checksum
/// line is its name (its bytes are hashed as they are read, and a stored cover whose bytes do
/// not match its name gets the digest they do have).
public struct BundleWriter: Sendable {
    /// How the archive is compressed.
    public var compression: BundleCompression
    /// What `manifest.json` names as its generator ("albumkit 0.1.0").
    public var generator: String

    public init(compression: BundleCompression, generator: String) {
        self.compression = compression
        self.generator = generator
    }

    /// Progress is reported after each batch of covers, and within a batch too once this many
    /// bytes were written since the last reading (large covers), but not per cover: an event
    /// costs about as much as a small cover.
    static let progressBytes: Int64 = 1 << 20

    /// How many albums are read from the library at a time. A database reads on while a run is
    /// spooled, and the runs it is ahead wait in memory: small runs are spooled as soon as they
    /// are read and hold little (BENCHMARKS.md: the `.tar.zst` export).
    static let albumRun = 512

    /// Writes `contents` and the covers `keys` names (default: every stored cover, in the order
    /// the store keeps them: ``ExportContents/coverKeysInStoredOrder()``), in that order, to
    /// `destination`; reports `export.progress` on `hub` when given. Returns the bytes written.
    @discardableResult
    public func write(
        _ contents: ExportContents, keys: [CoverKey]? = nil, to destination: URL, hub: NotificationHub? = nil
    ) async throws -> Int64 {
        let path = destination.path
        let modified = Date()
        // The albums first, into their part: the manifest counts them and the list's entry
        // announces its size, so both are known before the file's first bytes.
        let (list, state, total) = try await readAlbums(contents, beside: destination)
        let file = try TemporaryFile(beside: destination)
        var sums = BundleChecksums()
        let json = JSONFormat()
        // The file: the manifest and the list's header, compressed alone; the list's part; then
        // the rest of the stream, from `state.json` to the end of the archive.
        let manifest = try json.encode(BundleManifest(albumCount: total, generator: generator))
        sums.file("manifest.json", digest: SHA256Digest.hex(of: manifest))
        sums.file("albums.json", digest: list.digest)
        let head = try ArchiveWriter.head([("manifest.json", manifest)], thenHeaderOf: "albums.json", size: list.size, path: path, modified: modified)
        let before = try compressed(head, to: file.descriptor, path: path) + list.compressedSize
        try list.append(to: file.descriptor, path: path)
        let archive = try ArchiveWriter(descriptor: file.descriptor, path: path, compression: compression, modified: modified)
        func add(_ name: String, _ bytes: Data) throws {
            try archive.add(name, bytes)
            sums.file(name, digest: SHA256Digest.hex(of: bytes))
        }
        try add("state.json", try json.encode(try await contents.stateFile(of: state)))
        var covers = 0
        var reported: Int64 = 0
        func report() {
            reported = archive.bytesWritten
            hub?.publish(.exportProgress(path: path, albums: total, totalAlbums: total, covers: covers, bytesWritten: before + reported))
        }
        report()
        let (coverKeys, places): ([CoverKey], [Int64]?) = if let keys { (keys, nil) } else { try await contents.coverKeysInStoredOrder() }
        sums.covers = coverKeys
        var batches = CoverBatches(coverKeys, at: places, from: contents, path: path)
        do {
            while let (range, batch) = try await batches.next() {
                for (index, cover) in zip(range, batch) {
                    guard let cover else {
                        sums.missing.insert(index)
                        continue
                    }
                    try archive.add(coverKeys[index].bundlePath, cover.bytes)
                    sums.cover(at: index, digest: cover.digest)
                    covers += 1
                    if archive.bytesWritten - reported >= Self.progressBytes { report() }
                }
                report()
            }
        } catch {
            await batches.stop()
            throw error
        }
        try archive.add(ChecksumList.entryName, size: sums.textSize) { write in try sums.writeText(to: write) }
        try archive.close()
        try file.commit()
        return before + archive.bytesWritten
    }
}

extension BundleWriter {
    /// Reads the memento and every album of `contents` into `albums.json`'s part beside
    /// `destination`; returns the part, the memento and how many albums it holds. The part's
    /// compressor is gone once this returns: the covers are written without it in memory.
    private func readAlbums(_ contents: ExportContents, beside destination: URL) async throws -> (AlbumListPart.Written, LibraryState, Int) {
        var part = try AlbumListPart(beside: destination, compression: compression)
        var state: LibraryState?
        var total = 0
        try await contents.readWithText(inRunsOf: Self.albumRun) { piece in
            switch piece {
            case .state(let read): state = read
            case .albums(let albums):
                try part.append(albums)
                total += albums.count
            }
        }
        guard let state else { throw AlbumKitError(.libraryState, "\(destination.path): the library was read without its memento") }
        return (try part.finish(), state, total)
    }

    /// Writes `bytes`, compressed alone, to `descriptor` at its offset; returns the bytes
    /// written.
    private func compressed(_ bytes: Data, to descriptor: Int32, path: String) throws -> Int64 {
        let compressor = try CompressorThread(descriptor: descriptor, path: path, compression: compression)
        do {
            try bytes.withUnsafeBytes { try compressor.write($0) }
            try compressor.finish()
        } catch {
            compressor.abandon()
            throw error
        }
        return compressor.bytesWritten
    }
}

/// The lines of `checksums.sha256`, kept small: whole lines for the few list files, and for
/// each cover only its place in the list of keys being written (its name is its digest),
/// unless its bytes hash to something else or it was not found.
private struct BundleChecksums {
    private var files: [(path: String, digest: String)] = []
    /// The keys of the covers, in the order written.
    var covers: [CoverKey] = []
    /// The places in ``covers`` of keys the store had no bytes for: not in the archive.
    var missing = Set<Int>()
    private var unexpected: [Int: String] = [:]

    mutating func file(_ path: String, digest: String) { files.append((path, digest)) }

    /// Notes `digest`, the digest of the bytes written for the cover at `index` of ``covers``.
    mutating func cover(at index: Int, digest: SHA256Words) {
        if covers[index].digestWords != digest { unexpected[index] = digest.description }
    }

    private var written: some Sequence<(offset: Int, element: CoverKey)> {
        covers.enumerated().lazy.filter { !missing.contains($0.offset) }
    }

    /// The size of the text, in bytes.
    var textSize: Int {
        files.reduce(0) { $0 + 67 + $1.path.utf8.count } + written.reduce(0) { $0 + 67 + $1.element.bundlePath.utf8.count }
    }

    /// Hands the text to `write`, a line at a time.
    func writeText(to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        for (path, digest) in files { try line(digest, path, write) }
        for (index, key) in written { try line(unexpected[index] ?? key.sha256, key.bundlePath, write) }
    }

    private func line(_ digest: String, _ path: String, _ write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var text = "\(digest)  \(path)\n"
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }
}
