import AlbumKit
import CArchive

#if canImport(Glibc)
import Glibc
#endif

/// An archive's bytes as stored: an open file, or a copy in memory (the fuzz targets, and
/// callers that already hold the bytes). Read front to back once, by one owner; the file is
/// closed and the copy freed in `deinit`.
final class StoredBytes {
    /// The archive, as messages name it.
    let name: String
    /// How many bytes are stored.
    let size: Int64
    private let descriptor: Int32
    /// The copy (at least one byte allocated, `size` of them used), or nil for a file.
    private let memory: UnsafeMutableRawBufferPointer?
    private var memoryOffset = 0

    /// Opens the file at `path`.
    init(file path: String) throws(AlbumKitError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AlbumKitError.fileSystem(path, "open", errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw AlbumKitError.fileSystem(path, "read", errno: code)
        }
        name = path
        size = Int64(status.st_size)
        self.descriptor = descriptor
        memory = nil
    }

    /// Keeps a copy of `bytes`; `name` names them in messages.
    init(copying bytes: some Collection<UInt8>, name: String) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        // One copy of contiguous bytes, not an element-by-element walk.
        if bytes.withContiguousStorageIfAvailable({ memory.copyMemory(from: UnsafeRawBufferPointer($0)) }) == nil {
            _ = memory.initializeMemory(as: UInt8.self, from: bytes)
        }
        self.name = name
        size = Int64(bytes.count)
        descriptor = -1
        self.memory = memory
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        memory?.deallocate()
    }

    /// Whether the bytes are a file (whose offsets another reader can seek to later).
    var isFile: Bool { descriptor >= 0 }

    /// Up to `count` bytes from the start, without moving the reading position.
    func prefix(_ count: Int) -> [UInt8] {
        if let memory { return Array(memory.prefix(min(count, Int(size)))) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        return Array(bytes.prefix(max(read, 0)))
    }

    /// The next bytes into `buffer`; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ArchiveProblem) -> Int {
        if let memory {
            let count = min(buffer.count, Int(size) - memoryOffset)
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: memory[memoryOffset..<memoryOffset + count]))
            memoryOffset += count
            return count
        }
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw ArchiveProblem(.fileSystem, "cannot read: \(String(cString: strerror(errno)))") }
        }
    }

    /// Opens libarchive's read `handle` on these bytes (from the start, seekable).
    func attach(to handle: OpaquePointer, blockSize: Int = 64 * 1024) -> Int32 {
        if let memory { return archive_read_open_memory(handle, memory.baseAddress, Int(size)) }
        return archive_read_open_fd(handle, descriptor, blockSize)
    }
}
