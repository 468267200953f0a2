import AlbumKit
import CFileSync
import Crypto
import Foundation

/// `albums.json`'s contents in the bundle's tar stream, padded to whole 512-byte records and
/// compressed, as the albums are read, on a thread of its own into a scratch file beside the
/// export: a gzip member, zstd frame or xz stream of its own, which the bundle's file takes
/// whole after its tar header (a run of members is one gzip stream; so with zstd frames and
/// xz streams). The entry's header announces its size, known only once the last album is
/// written; the text is spooled compressed because that writes far fewer bytes to the disk than
/// the text would, and no byte is read back to be compressed after the albums (BENCHMARKS.md,
/// the `.tar.zst` export). The file has no name (``ScratchFile``): it goes with the part,
/// however the process ends. The compressor owns it too, so that a part dropped mid-way (an
/// album read failed) closes the file only once the compressor has stopped writing to it.
struct AlbumListPart {
    private let file: ScratchFile
    private let output: ListOutput
    private var list: JSONFormat.AlbumListWriter

    /// A part beside `destination`, the export's file, compressed as `compression` says.
    init(beside destination: URL, compression: BundleCompression) throws {
        file = try ScratchFile(in: destination.deletingLastPathComponent())
        let output = ListOutput(try CompressorThread(descriptor: file.descriptor, owner: file, path: destination.path, compression: compression))
        self.output = output
        list = JSONFormat.AlbumListWriter(sink: { try output.write($0) })
    }

    /// Writes `albums` after those written so far.
    mutating func append(_ albums: [AlbumWithText]) throws { try list.append(albums) }

    /// Ends the list and its compressed part; returns what the bundle's file needs of it.
    mutating func finish() throws -> Written {
        try list.finish()
        let size = output.size
        let padding = (512 - size % 512) % 512
        try [UInt8](repeating: 0, count: padding).withUnsafeBytes { try output.compressor.write($0) }
        try output.compressor.finish()
        return Written(size: size, digest: SHA256Digest.hex(output.hash.finalize()), file: file, compressedSize: output.compressor.bytesWritten)
    }

    /// A finished part.
    struct Written {
        /// The size of `albums.json`, unpadded.
        let size: Int
        /// Its SHA-256, in hex.
        let digest: String
        /// The compressed part.
        let file: ScratchFile
        /// The size of the compressed part, in bytes.
        let compressedSize: Int64

        /// Appends the compressed part to the open file `descriptor`, at its offset; `path`
        /// names the export in errors.
        func append(to descriptor: Int32, path: String) throws(AlbumKitError) {
            var offset: Int64 = 0
            while offset < compressedSize {
                let copied = albumkit_copy_range(file.descriptor, offset, descriptor, compressedSize - offset)
                if copied < 0 && errno == EINTR { continue }
                guard copied > 0 else {
                    throw copied < 0 ? .fileSystem(path, "copy the album list into the bundle", errno: errno)
                        : AlbumKitError(.fileSystem, "\(path): the album list's part ended after \(offset) of \(compressedSize) bytes")
                }
                offset += copied
            }
        }
    }
}

/// Where the list's text goes: hashed and counted, then handed to the compressing thread.
private final class ListOutput {
    let compressor: CompressorThread
    var hash = SHA256()
    private(set) var size = 0

    init(_ compressor: CompressorThread) { self.compressor = compressor }

    /// A part dropped unfinished stops the thread while the compressor is still held here: the
    /// thread holds it unowned, and must not be the one to let it go.
    deinit { compressor.abandon() }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        hash.update(bufferPointer: bytes)
        size += bytes.count
        try compressor.write(bytes)
    }
}
