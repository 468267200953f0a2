import AlbumKit
import CArchive
import Foundation
import Synchronization

/// The second stage of writing a compressed archive: a libarchive "raw" writer with the
/// compression filter, fed the finished tar stream in blocks and writing the compressed bytes
/// to the file, on a thread of its own — so that compressing runs on one core while reading,
/// hashing and laying out the entries runs on another (as `tar -czf` runs `gzip` beside it).
/// The handle is made here and then used only by the thread. (Writing the file from a third
/// thread was tried and kept out: BENCHMARKS.md.) A bundle's first parts, the head and the
/// album list (``AlbumListPart``), go through one each, with no filter for a plain tar.
final class CompressorThread: BlockStage, @unchecked Sendable {
    private let handle: OpaquePointer
    private let path: String
    /// The compressed stream's way into the file.
    private let toOutput: StageInlet
    private var compressing: BlockThread!
    private let written = Atomic<Int64>(0)

    /// The size of the compressed blocks written to the file (libarchive's default of 10 KiB
    /// would make a `write` call of every 10 KiB; larger blocks are only more memory).
    private static let outputBlockSize: Int32 = 256 << 10

    /// Starts compressing into `descriptor`; `path` names the file in errors. `owner`, when
    /// given, owns the descriptor: the compressor holds it until the thread has stopped and the
    /// handle is freed, so the descriptor cannot be closed (and its number reused) while
    /// compressed bytes may still go to it.
    init(descriptor: Int32, owner: AnyObject? = nil, path: String, compression: BundleCompression) throws(AlbumKitError) {
        guard let handle = archive_write_new() else { throw ArchiveProblem.cannotStart.error(path) }
        self.handle = handle
        self.path = path
        toOutput = StageInlet(FileOutput(descriptor: descriptor, owner: owner, path: path))
        // Every property is set by now: when a step throws, `deinit` runs and frees the handle.
        try ArchiveStatus.check(archive_write_set_format_raw(handle), handle, .unsupported, path)
        try ArchiveStatus.check(Self.filter(compression)(handle), handle, .unsupported, path)
        if compression == .zstd {
            // Level 1, not libarchive's (and the zstd tool's) 3: a bundle is mostly covers,
            // images already compressed, on which level 3 spends far more time for
            // nothing; albums.json comes out as small (BENCHMARKS.md: the `.tar.zst` export).
            try ArchiveStatus.check(archive_write_set_filter_option(handle, "zstd", "compression-level", "1"), handle, .unsupported, path)
        }
        // zstd runs here, without workers of its own: this thread is the compressing core,
        // and a worker's job buffers would be several times the memory the rest of an
        // export holds.
        try ArchiveStatus.check(archive_write_set_bytes_per_block(handle, Self.outputBlockSize), handle, .fileSystem, path)
        try ArchiveStatus.check(archive_write_set_bytes_in_last_block(handle, 1), handle, .fileSystem, path)
        try toOutput.open(handle, path: path)
        guard let entry = archive_entry_new() else { throw ArchiveProblem.cannotStart.error(path) }
        defer { archive_entry_free(entry) }
        archive_entry_set_filetype(entry, 0o100000)  // AE_IFREG: the raw format's one entry
        archive_entry_set_pathname(entry, "data")
        try ArchiveStatus.check(archive_write_header(handle, entry), handle, .fileSystem, path)
        compressing = BlockThread(
            name: "albumkit-compress", path: path,
            consume: { [unowned self] (bytes: UnsafeRawBufferPointer) throws(AlbumKitError) in try compress(bytes) },
            end: { [unowned self] () throws(AlbumKitError) in try end() })
    }

    /// The owner has called ``finish()`` or ``abandon()`` by now (the thread, which holds this
    /// object unowned, has ended). The handle is marked failed before it is freed: libarchive's
    /// free otherwise closes a stream left open, flushing its end into a file the owner gave up
    /// on. (After `finish()` the stream is closed already, and marking it changes nothing.)
    deinit {
        archive_write_fail(handle)
        archive_write_free(handle)
    }

    /// Compressed bytes written to the file so far.
    var bytesWritten: Int64 { written.load(ordering: .relaxed) }

    /// Hands over a copy of the next block of the tar stream, waiting while compressing is
    /// behind. Throws what stopped it, if anything did.
    func write(_ bytes: UnsafeRawBufferPointer) throws(AlbumKitError) { try compressing.write(bytes) }

    /// Compresses what is left, ends the stream and waits for the thread.
    func finish() throws(AlbumKitError) { try compressing.finish() }

    /// Stops the thread without finishing (the archive is abandoned).
    func abandon() { compressing.abandon() }

    /// Compresses one block of the tar stream (on the compressing thread).
    private func compress(_ buffer: UnsafeRawBufferPointer) throws(AlbumKitError) {
        var offset = 0
        while offset < buffer.count {
            let count = archive_write_data(handle, buffer.baseAddress! + offset, buffer.count - offset)
            offset += try toOutput.checked { () throws(AlbumKitError) in try ArchiveStatus.count(count, handle, .fileSystem, path) }
        }
        written.store(archive_filter_bytes(handle, -1), ordering: .relaxed)
    }

    /// Ends the compressed stream and writes what is left of it.
    private func end() throws(AlbumKitError) {
        try toOutput.checked { () throws(AlbumKitError) in try ArchiveStatus.check(archive_write_close(handle), handle, .fileSystem, path) }
        written.store(archive_filter_bytes(handle, -1), ordering: .relaxed)
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

/// A stage of writing an archive that takes the stream in blocks: the compressor, the file.
protocol BlockStage: AnyObject {
    /// Hands over a copy of the next block. Throws what stopped the stage, if anything did.
    func write(_ bytes: UnsafeRawBufferPointer) throws(AlbumKitError)
}

/// The file a compressed archive is written to, as the compressor's last stage: its `write`
/// copies every byte into the file there and then, on the compressor's thread. It holds the
/// descriptor's owner, if any, so the descriptor stays open as long as it can be written to.
private final class FileOutput: BlockStage {
    private let descriptor: Int32
    private let owner: AnyObject?
    private let path: String

    init(descriptor: Int32, owner: AnyObject?, path: String) {
        self.descriptor = descriptor
        self.owner = owner
        self.path = path
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(AlbumKitError) {
        do {
            try AtomicFile.writeAll(descriptor, bytes, path: path)
        } catch {
            throw error as? AlbumKitError ?? AlbumKitError(.fileSystem, "\(path): \(error)")
        }
    }
}

/// How a libarchive writer hands its output to the next stage: the write callback, and why the
/// stage stopped once a block found it stopped — libarchive then says only that a write was
/// refused, and this is the reason to give instead (a full disk, say).
final class StageInlet {
    private let stage: any BlockStage
    private var reason: AlbumKitError?

    init(_ stage: any BlockStage) { self.stage = stage }

    /// Opens `handle` to write its output to the stage; `path` names the archive in errors.
    func open(_ handle: OpaquePointer, path: String) throws(AlbumKitError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let opened = archive_write_open2(handle, context, nil, { _, context, buffer, length in
            guard let context, let buffer else { return -1 }
            let inlet = Unmanaged<StageInlet>.fromOpaque(context).takeUnretainedValue()
            do {
                try inlet.stage.write(UnsafeRawBufferPointer(start: buffer, count: length))
                return length
            } catch let error as AlbumKitError {
                inlet.reason = error
                return -1
            } catch {
                return -1
            }
        }, nil, nil)
        try ArchiveStatus.check(opened, handle, .fileSystem, path)
    }

    /// What `body` (a call on the writer) returns; when it throws once the stage has stopped,
    /// the stage's reason.
    @discardableResult
    func checked<T>(_ body: () throws(AlbumKitError) -> T) throws(AlbumKitError) -> T {
        do {
            return try body()
        } catch {
            throw reason ?? error
        }
    }
}

/// A thread that takes blocks of bytes from another and hands each to `consume`, in order,
/// then calls `end` once no more will come. The other side hands a block over with ``write(_:)``
/// (a copy, waiting while the thread is two blocks behind) and waits for the thread with
/// ``finish()`` or ``abandon()``. What stopped the thread is thrown to the other side.
final class BlockThread: BlockStage, @unchecked Sendable {
    private let path: String
    private let queue = BlockQueue(capacity: 2)
    private let done = DispatchSemaphore(value: 0)
    private let consume: (UnsafeRawBufferPointer) throws(AlbumKitError) -> Void
    private let end: () throws(AlbumKitError) -> Void
    /// Whether the other side has seen the thread end.
    private var joined = false
    /// What went wrong on the thread (read after it has ended).
    private var failure: AlbumKitError?

    /// Starts the thread, named `name`; `path` names the file in errors.
    init(
        name: String, path: String, consume: @escaping (UnsafeRawBufferPointer) throws(AlbumKitError) -> Void,
        end: @escaping () throws(AlbumKitError) -> Void
    ) {
        self.path = path
        self.consume = consume
        self.end = end
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Hands over a copy of the next block, waiting while the thread is behind. Throws what
    /// stopped the thread, if anything did.
    func write(_ bytes: UnsafeRawBufferPointer) throws(AlbumKitError) {
        guard queue.put(copying: bytes) else {
            join()
            throw failure ?? AlbumKitError(.fileSystem, "\(path): writing stopped")
        }
    }

    /// Lets the thread consume what is queued and end, and waits for it.
    func finish() throws(AlbumKitError) {
        queue.close()
        join()
        if let failure { throw failure }
    }

    /// Stops the thread without ending (what is queued is dropped) and waits for it.
    func abandon() {
        queue.fail()
        join()
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
                try block.withUnsafeBytes { try consume($0) }
                queue.recycle(block)
            }
            if !queue.failed { try end() }
        } catch {
            failure = error as? AlbumKitError ?? AlbumKitError(.fileSystem, "\(path): \(error)")
            queue.fail()
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
