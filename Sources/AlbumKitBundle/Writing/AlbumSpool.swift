import AlbumKit
import Foundation

/// `albums.json`, written to a scratch file beside the export as the albums are read, then
/// copied into the archive. Its entry announces its size first, and that size is known only
/// once the last album is written: without the spool, every album would be held until then.
/// The file has no name (``ScratchFile``): it goes with the spool, however the process ends.
struct AlbumSpool {
    private let file: ScratchFile
    private var list: JSONFormat.AlbumListWriter
    /// How many bytes are read back at a time.
    private static let readSize = 256 << 10

    /// A spool beside `destination`, the export's file.
    init(beside destination: URL) throws {
        file = try ScratchFile(in: destination.deletingLastPathComponent())
        list = JSONFormat.AlbumListWriter(descriptor: file.descriptor, path: destination.path)
    }

    /// Writes `albums` after those written so far.
    mutating func append(_ albums: [AlbumWithText]) throws { try list.append(albums) }

    /// Ends the list; returns its size in bytes.
    mutating func finish() throws -> Int {
        try list.finish()
        return try file.size()
    }

    /// Hands the first `size` bytes back to `write`, a buffer at a time.
    func copy(_ size: Int, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        var offset = 0
        while offset < size {
            let count = min(Self.readSize, size - offset)
            try buffer.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<count]), at: offset) }
            try buffer.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += count
        }
    }
}
