import AlbumKit
import CArchive
import Foundation
import Synchronization

/// The second stage of writing a compressed archive: a libarchive "raw" writer with the
/// compression filter, fed the finished tar stream in blocks and writing the compressed bytes
/// to the file, on a thread of its own — so that compressing runs on one core while reading,
/// hashing and laying out the entries runs on another (as `tar -czf` runs `gzip` beside it).
/// The handle is made here and then used only by the thread.
final class CompressorThread: @unchecked Sendable {
    private let handle: OpaquePointer
    private let path: String
    private let queue = BlockQueue(capacity: 2)
    private let done = DispatchSemaphore(value: 0)
    /// Whether the caller has seen the thread end.
    private var joined = false
    /// What went wrong on the thread (read after it has ended).
    private var failure: AlbumKitError?
    private let written = Atomic<Int64>(0)

    /// The size of the compressed blocks written to the file (libarchive's default is 10 KiB:
    /// 30 000 `write` calls for a 300 MB archive; 1 MiB was as much memory as the blocks queued).
    private static let outputBlockSize: Int32 = 256 << 10

    /// Starts compressing into `descriptor`; `path` names the file in errors.
    init(descriptor: Int32, path: String, compression: BundleCompression) throws(AlbumKitError) {
        guard let handle = archive_write_new() else { throw ArchiveProblem.cannotStart.error(path) }
        self.handle = handle
        self.path = path
        do throws(AlbumKitError) {
            try ArchiveStatus.check(archive_write_set_format_raw(handle), handle, .unsupported, path)
            try ArchiveStatus.check(Self.filter(compression)(handle), handle, .unsupported, path)
            // zstd runs here, without workers of its own: this thread is the compressing core,
            // and a worker's job buffers would cost 60 MB.
            try ArchiveStatus.check(archive_write_set_bytes_per_block(handle, Self.outputBlockSize), handle, .fileSystem, path)
            try ArchiveStatus.check(archive_write_set_bytes_in_last_block(handle, 1), handle, .fileSystem, path)
            try ArchiveStatus.check(archive_write_open_fd(handle, descriptor), handle, .fileSystem, path)
            guard let entry = archive_entry_new() else { throw ArchiveProblem.cannotStart.error(path) }
            defer { archive_entry_free(entry) }
            archive_entry_set_filetype(entry, 0o100000)  // AE_IFREG: the raw format's one entry
            archive_entry_set_pathname(entry, "data")
            try ArchiveStatus.check(archive_write_header(handle, entry), handle, .fileSystem, path)
        } catch {
            archive_write_free(handle)
            throw error
        }
        let thread = Thread { [self] in run() }
        thread.name = "albumkit-compress"
        thread.start()
    }

    deinit { archive_write_free(handle) }

    /// Compressed bytes written to the file so far.
    var bytesWritten: Int64 { written.load(ordering: .relaxed) }

    /// Hands over a copy of the next block of the tar stream, waiting while the thread is
    /// behind. Throws what stopped the thread, if anything did.
    func write(_ bytes: UnsafeRawBufferPointer) throws(AlbumKitError) {
        guard queue.put(copying: bytes) else { throw finishFailed() }
    }

    /// Compresses what is left, ends the stream and waits for the thread.
    func finish() throws(AlbumKitError) {
        queue.close()
        join()
        if let failure { throw failure }
    }

    /// Stops the thread without finishing (the archive is abandoned).
    func abandon() {
        queue.fail()
        join()
    }

    private func finishFailed() -> AlbumKitError {
        join()
        return failure ?? AlbumKitError(.fileSystem, "\(path): compression stopped")
    }

    /// Waits for the thread to end (once; later calls return at once).
    private func join() {
        guard !joined else { return }
        done.wait()
        joined = true
    }

    private func run() {
        defer { done.signal() }
        do {
            while let block = queue.take() {
                try block.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                    var offset = 0
                    while offset < buffer.count {
                        let count = archive_write_data(handle, buffer.baseAddress! + offset, buffer.count - offset)
                        offset += try ArchiveStatus.count(count, handle, .fileSystem, path)
                    }
                }
                queue.recycle(block)
                written.store(archive_filter_bytes(handle, -1), ordering: .relaxed)
            }
            if !queue.failed { try ArchiveStatus.check(archive_write_close(handle), handle, .fileSystem, path) }
            written.store(archive_filter_bytes(handle, -1), ordering: .relaxed)
        } catch {
            failure = error as? AlbumKitError ?? AlbumKitError(.fileSystem, "\(path): \(error)")
            queue.fail()
        }
    }

    private static func filter(_ compression: BundleCompression) -> (OpaquePointer?) -> Int32 {
        switch compression {
        case .gzip: archive_write_add_filter_gzip
        case .zstd: archive_write_add_filter_zstd
        case .xz: archive_write_add_filter_xz
        case .none: archive_write_add_filter_none
        }
    }
}

/// Blocks of bytes between two threads, at most `capacity` waiting: `put` waits while it is
/// full, `take` while it is empty. Failing it wakes and stops both sides. A block taken and done
/// with comes back through `recycle`, so a long stream reuses a few buffers instead of
/// allocating (and, at this size, mapping and unmapping) one per block.
final class BlockQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var blocks: [Data] = []
    private var spares: [Data] = []
    private var closed = false
    private var hasFailed = false

    init(capacity: Int) { self.capacity = capacity }

    /// Whether either side gave up.
    var failed: Bool { condition.withLock { hasFailed } }

    /// Queues a copy of `bytes`; false when the queue failed.
    func put(copying bytes: UnsafeRawBufferPointer) -> Bool {
        condition.withLock {
            while blocks.count >= capacity && !hasFailed { condition.wait() }
            guard !hasFailed else { return false }
            var block = spares.popLast() ?? Data()
            block.count = bytes.count
            block.withUnsafeMutableBytes { $0.copyMemory(from: bytes) }
            blocks.append(block)
            condition.broadcast()
            return true
        }
    }

    /// The next block, or nil once the queue is closed and empty, or failed.
    func take() -> Data? {
        condition.withLock {
            while blocks.isEmpty && !closed && !hasFailed { condition.wait() }
            guard !hasFailed, !blocks.isEmpty else { return nil }
            condition.broadcast()
            return blocks.removeFirst()
        }
    }

    /// Keeps `block`, which its taker is done with, for a later `put`.
    func recycle(_ block: Data) {
        condition.withLock { if spares.count < capacity { spares.append(block) } }
    }

    /// No more blocks will come.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Stops both sides.
    func fail() {
        condition.withLock {
            hasFailed = true
            condition.broadcast()
        }
    }
}
