import AlbumKit
import CArchive

/// Hands an ``UnpackedStream`` to a libarchive handle that parses the archive format, through
/// libarchive's read callback, counting the unpacked bytes against `limits.archiveBytes`.
///
/// A callback cannot throw and libarchive's `archive_set_error` is variadic (Swift does not
/// import it), so a failure is kept in ``failure`` and the callback answers `ARCHIVE_FATAL`;
/// ``ArchiveReader`` reports the kept failure in place of libarchive's generic complaint.
final class StreamFeed {
    private let stream: any UnpackedStream
    private let limit: Int64
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// Unpacked bytes handed out so far.
    private(set) var unpackedBytes: Int64 = 0
    /// Why the stream stopped, when it failed.
    private(set) var failure: ArchiveProblem?
    /// The first unpacked bytes, to tell what the layer held when no format recognises it.
    private(set) var head: [UInt8] = []

    init(_ stream: any UnpackedStream, limit: Int64) {
        self.stream = stream
        self.limit = limit
    }

    deinit { buffer.deallocate() }

    /// Stored (compressed) bytes taken so far.
    var storedBytesRead: Int64 { stream.storedBytesRead }

    /// Opens the format `handle` on this feed. The feed must outlive the handle.
    func attach(to handle: OpaquePointer) -> Int32 {
        archive_read_open(handle, Unmanaged.passUnretained(self).toOpaque(), nil, { _, client, output in
            Unmanaged<StreamFeed>.fromOpaque(client!).takeUnretainedValue().next(output!)
        }, nil)
    }

    /// Reads the stream after the archive format has ended, to its very end, so that its
    /// checks run and nothing is left after it.
    func drain() throws(ArchiveProblem) {
        while try fill() > 0 {}
    }

    private func next(_ output: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        do {
            let count = try fill()
            output.pointee = UnsafeRawPointer(buffer.baseAddress)
            return count
        } catch {
            failure = error
            return Int(ARCHIVE_FATAL)
        }
    }

    private func fill() throws(ArchiveProblem) -> Int {
        if let failure { throw failure }
        let count = try stream.read(into: buffer)
        let length = CompressionLayer.prefixLength
        if head.count < length { head += buffer.prefix(min(count, length - head.count)) }
        unpackedBytes += Int64(count)
        guard unpackedBytes <= limit else {
            throw ArchiveProblem(.limitExceeded, "the archive unpacks to more than \(limit) bytes, the limit (limits.archiveBytes); nothing was written")
        }
        return count
    }
}
