import AlbumKit
import CArchive

/// A gzip layer unpacked by zlib, member after member, with every check `gzip -t` makes.
///
/// libarchive's own gzip filter inflates raw deflate data and skips each member's trailer
/// unread ("XXX TODO: Verify the length and CRC" in archive_read_support_filter_gzip.c), and
/// stops quietly at bytes that do not start another member. zlib in gzip mode (window bits
/// 15 + 16) checks the CRC-32 and the length of every member; what follows the last member
/// must be another member, or nothing.
final class GzipStream: UnpackedStream {
    private let stored: StoredBytes
    /// zlib keeps a pointer back to its `z_stream`, so the struct must never move.
    private let stream: UnsafeMutablePointer<z_stream>
    private let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private var storedTaken: Int64 = 0
    private var storedEnded = false
    private var atMemberStart = true
    private var finished = false

    init(_ stored: StoredBytes) throws(ArchiveProblem) {
        self.stored = stored
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            input.deallocate()
            throw ArchiveProblem(.fileSystem, "cannot start zlib")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    var storedBytesRead: Int64 { storedTaken - Int64(stream.pointee.avail_in) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ArchiveProblem) -> Int {
        while !finished {
            if stream.pointee.avail_in < 2, !storedEnded { try refill() }
            if atMemberStart {
                guard stream.pointee.avail_in > 0 else {
                    finished = true
                    break
                }
                try startMember()
            }
            stream.pointee.next_out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(buffer.count)
            let code = inflate(stream, Z_NO_FLUSH)
            let produced = buffer.count - Int(stream.pointee.avail_out)
            switch code {
            case Z_OK:
                break
            case Z_STREAM_END:
                atMemberStart = true
            case Z_BUF_ERROR where stream.pointee.avail_in == 0:
                // zlib needs more input: there is none when the stream was cut short.
                if storedEnded { throw ArchiveProblem(.unreadableInput, "the gzip stream is truncated") }
            default:
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                throw ArchiveProblem(.unreadableInput, "the gzip stream is corrupt (\(detail)) at byte \(storedBytesRead)")
            }
            if produced > 0 { return produced }
        }
        return 0
    }

    /// At the start of a member: the stored bytes must begin another gzip member here.
    private func startMember() throws(ArchiveProblem) {
        let next = stream.pointee.next_in!
        guard stream.pointee.avail_in >= 2, next[0] == 0x1F, next[1] == 0x8B else {
            throw ArchiveProblem(.unreadableInput, "data follows the end of the gzip stream (at byte \(storedBytesRead)); the file is corrupt")
        }
        guard inflateReset(stream) == Z_OK else { throw ArchiveProblem(.fileSystem, "cannot restart zlib") }
        atMemberStart = false
    }

    /// Moves the unread input to the front of the buffer and fills the rest from the file.
    private func refill() throws(ArchiveProblem) {
        let left = Int(stream.pointee.avail_in)
        if left > 0, let next = stream.pointee.next_in {
            input.baseAddress!.copyMemory(from: next, byteCount: left)
        }
        let count = try stored.read(into: UnsafeMutableRawBufferPointer(rebasing: input[left...]))
        if count == 0 { storedEnded = true }
        storedTaken += Int64(count)
        stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = uInt(left + count)
    }
}
