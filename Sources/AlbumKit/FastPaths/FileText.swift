import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A file's bytes read into memory pages of their own, which a reader hands back to the system
/// as it passes them (``handBack(_:)``): what is read out of a large library file is kept, and
/// the text need not stay beside it to the end.
///
/// A page handed back reads as zeros, which no JSON text holds outside a string and a JSON
/// string may not hold at all: a reader that strays into one is refused, never misled.
/// ``restore()`` reads every page handed back in again, from the file as it was opened (this
/// program replaces a library file by renaming a new one over it, never writes into it).
final class FileText: @unchecked Sendable {
    /// The file's bytes.
    let bytes: UnsafeBufferPointer<UInt8>
    private let pages: UnsafeMutableRawBufferPointer
    private let descriptor: Int32
    /// The ranges of pages handed back, not yet restored.
    private let handedBack = Mutex<[Range<Int>]>([])

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Why a file could not be read (the system's words).
    struct ReadFailure: LocalizedError {
        let errorDescription: String?
    }

    /// Reads the file at `url`.
    init(contentsOf url: URL) throws(ReadFailure) {
        descriptor = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure(errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw Self.failure(code)
        }
        let count = Int(status.st_size)
        // Populated at once: the whole file is read into them next, and one call costs less
        // than a fault a page (7% of a json `update`'s profile).
        let mapped = mmap(nil, max(count, 1), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0)
        guard let mapped, mapped != MAP_FAILED else {
            close(descriptor)
            throw Self.failure(ENOMEM)
        }
        pages = UnsafeMutableRawBufferPointer(start: mapped, count: max(count, 1))
        bytes = UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: count)
        do {
            try readIn(0..<count)
        } catch {
            munmap(pages.baseAddress, pages.count)
            close(descriptor)
            throw error
        }
    }

    deinit {
        munmap(pages.baseAddress, pages.count)
        close(descriptor)
    }

    /// Hands back the whole pages inside `range` (offsets into ``bytes``); safe from any thread.
    func handBack(_ range: Range<Int>) {
        let size = Self.pageSize
        let start = (range.lowerBound + size - 1) / size * size
        let end = range.upperBound / size * size
        guard start < end else { return }
        handedBack.withLock { $0.append(start..<end) }
        madvise(pages.baseAddress! + start, end - start, MADV_DONTNEED)
    }

    /// Reads every page handed back in again (before a second reading of the whole text).
    func restore() throws(ReadFailure) {
        let ranges = handedBack.withLock { ranges in
            defer { ranges = [] }
            return ranges
        }
        for range in ranges { try readIn(range) }
    }

    /// Reads `range` of the file into the same range of ``bytes``.
    private func readIn(_ range: Range<Int>) throws(ReadFailure) {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let read = pread(descriptor, pages.baseAddress! + offset, range.upperBound - offset, off_t(offset))
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { throw read < 0 ? Self.failure(errno) : ReadFailure(errorDescription: "the file got shorter while it was read") }
            offset += read
        }
    }

    private static func failure(_ code: Int32) -> ReadFailure {
        ReadFailure(errorDescription: String(cString: strerror(code)))
    }
}
