import AlbumKit
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `albums.json`, written to a temporary file beside the export as the albums are read, then
/// copied into the archive. Its entry announces its size first, and that size is known only
/// once the last album is written: without the spool, every album would be held until then.
/// The file goes when the spool does, and a crash leaves it to ``LeftoverFiles``.
struct AlbumSpool {
    private let file: TemporaryFile
    private var list: JSONFormat.AlbumListWriter
    /// Names the export in errors.
    private let path: String
    /// How many bytes are read back at a time.
    private static let readSize = 256 << 10

    /// A spool beside `destination`, the export's file.
    init(beside destination: URL) throws {
        file = try TemporaryFile(beside: destination)
        path = destination.path
        list = JSONFormat.AlbumListWriter(descriptor: file.descriptor, path: path)
    }

    /// Writes `albums` after those written so far.
    mutating func append(_ albums: [Album]) throws { try list.append(albums) }

    /// Ends the list; returns its size in bytes.
    mutating func finish() throws -> Int {
        try list.finish()
        let size = lseek(file.descriptor, 0, SEEK_CUR)
        guard size >= 0 else { throw failure("measure") }
        return Int(size)
    }

    /// Hands the first `size` bytes back to `write`, a buffer at a time.
    func copy(_ size: Int, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        var offset = 0
        while offset < size {
            let read = buffer.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, min($0.count, size - offset), off_t(offset)) }
            guard read > 0 else {
                if read < 0, errno == EINTR { continue }
                throw read < 0 ? failure("read back") : AlbumKitError(.fileSystem, "\(path): the spooled album list ended at \(offset) of \(size) bytes")
            }
            try buffer.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[..<read])) }
            offset += read
        }
    }

    private func failure(_ operation: String) -> AlbumKitError {
        AlbumKitError(.fileSystem, "\(path): cannot \(operation) the spooled album list: \(String(cString: strerror(errno)))")
    }
}
