import AlbumKit
import CArchive
import CFileSync
import Foundation

/// One libarchive write handle (`archive *`) producing a pax tar into an open file descriptor,
/// compressed as asked; freed in `deinit`. A compressed archive's tar stream goes in blocks to
/// a ``CompressorThread``, which compresses beside this one. As the file grows, this thread
/// starts the kernel writing it back, so the flush that makes the archive durable has little
/// left to wait for. Not `Sendable`: it stays inside one owner.
final class ArchiveWriter {
    private let handle: OpaquePointer
    private let descriptor: Int32
    private let entry: OpaquePointer
    private let path: String
    private let modified: time_t
    private let compressor: CompressorThread?
    private var closed = false
    /// The tar stream's way to the compressor (or, for ``head(_:thenHeaderOf:size:path:modified:)``, to memory).
    private let toCompressor: StageInlet?
    /// How many bytes the file held when writeback was last started.
    private var writeback: Int64 = 0
    /// The zeros a plain tar's file was padded with once closed.
    private var padding: Int64 = 0

    /// The size of the tar stream's blocks handed to the compressor.
    private static let blockSize: Int32 = 256 * 1024
    /// A tar record: a plain tar's size is a whole number of them.
    private static let tarRecord: Int32 = 10240
    /// The size of the blocks written to a plain tar.
    private static let plainBlockSize: Int32 = 25 * tarRecord
    /// How many bytes are written between two starts of writeback.
    private static let writebackInterval: Int64 = 16 << 20

    /// Starts an archive written to `descriptor`; `path` names it in errors.
    init(descriptor: Int32, path: String, compression: BundleCompression, modified: Date = Date()) throws(AlbumKitError) {
        guard let handle = archive_write_new(), let entry = archive_entry_new() else {
            throw ArchiveProblem.cannotStart.error(path)
        }
        self.handle = handle
        self.entry = entry
        self.descriptor = descriptor
        self.path = path
        self.modified = time_t(modified.timeIntervalSince1970)
        compressor = compression == .none ? nil : try CompressorThread(descriptor: descriptor, path: path, compression: compression)
        toCompressor = compressor.map(StageInlet.init)
        try ArchiveStatus.check(archive_write_set_format_pax_restricted(handle), handle, .unsupported, path)
        if let toCompressor {
            try ArchiveStatus.check(archive_write_set_bytes_per_block(handle, Self.blockSize), handle, .fileSystem, path)
            try ArchiveStatus.check(archive_write_set_bytes_in_last_block(handle, 1), handle, .fileSystem, path)
            try toCompressor.open(handle, path: path)
        } else {
            // Written in large blocks; the file is padded to whole 10 KiB records at the end
            // (``close()``), as tar pads it: the stream may start after a bundle's first part.
            try ArchiveStatus.check(archive_write_set_bytes_per_block(handle, Self.plainBlockSize), handle, .fileSystem, path)
            try ArchiveStatus.check(archive_write_set_bytes_in_last_block(handle, 1), handle, .fileSystem, path)
            try ArchiveStatus.check(archive_write_open_fd(handle, descriptor), handle, .fileSystem, path)
        }
    }

    deinit {
        if !closed { compressor?.abandon() }
        archive_entry_free(entry)
        archive_write_free(handle)
    }

    /// Adds a regular file `name` holding `bytes`.
    func add(_ name: String, _ bytes: Data) throws {
        try add(name, size: bytes.count) { write in try bytes.withUnsafeBytes { try write($0) } }
    }

    /// Adds a regular file `name` of `size` bytes, which `fill` writes through the function it
    /// is given, in pieces of any size (their sum must be `size`).
    func add(_ name: String, size: Int, _ fill: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try header(name, size: size)
        let subject = "\(path) entry \(name)"
        var total = 0
        try fill { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = archive_write_data(handle, buffer.baseAddress! + offset, buffer.count - offset)
                offset += try checked { () throws(AlbumKitError) in try ArchiveStatus.count(written, handle, .fileSystem, subject) }
            }
            total += buffer.count
        }
        guard total == size else { throw AlbumKitError(.fileSystem, "\(subject): \(total) bytes written, \(size) announced") }
        if descriptor >= 0 && bytesWritten - writeback >= Self.writebackInterval {
            writeback = bytesWritten
            _ = albumkit_start_writeback(descriptor)
        }
    }

    /// Starts a regular file `name` of `size` bytes: its header alone.
    private func header(_ name: String, size: Int) throws(AlbumKitError) {
        archive_entry_clear(entry)
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_filetype(entry, 0o100000)  // AE_IFREG, a cast macro that does not import
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_size(entry, Int64(size))
        archive_entry_set_mtime(entry, modified, 0)
        let subject = "\(path) entry \(name)"
        try checked { () throws(AlbumKitError) in try ArchiveStatus.check(archive_write_header(handle, entry), handle, .fileSystem, subject) }
    }

    /// The start of a tar stream, uncompressed: the files `files`, then the header of a file
    /// `name` of `size` bytes, whose contents (padded to whole 512-byte records) the caller
    /// writes after these bytes. `path` names the archive in errors.
    static func head(_ files: [(name: String, bytes: Data)], thenHeaderOf name: String, size: Int, path: String, modified: Date) throws -> Data {
        let collected = CollectedOutput()
        let writer = try ArchiveWriter(collectingInto: collected, path: path, modified: modified)
        for file in files { try writer.add(file.name, file.bytes) }
        try writer.header(name, size: size)
        // Written through unblocked, so every byte is already collected; failing the handle
        // keeps its end (the padding of the entry left open, the end of the archive) unwritten.
        archive_write_fail(writer.handle)
        writer.closed = true
        return collected.bytes
    }

    /// A writer handing each piece of the tar stream to `collected` as it is made, uncompressed.
    private init(collectingInto collected: CollectedOutput, path: String, modified: Date) throws(AlbumKitError) {
        guard let handle = archive_write_new(), let entry = archive_entry_new() else {
            throw ArchiveProblem.cannotStart.error(path)
        }
        self.handle = handle
        self.entry = entry
        descriptor = -1
        self.path = path
        self.modified = time_t(modified.timeIntervalSince1970)
        compressor = nil
        toCompressor = StageInlet(collected)
        try ArchiveStatus.check(archive_write_set_format_pax_restricted(handle), handle, .unsupported, path)
        try ArchiveStatus.check(archive_write_set_bytes_per_block(handle, 0), handle, .fileSystem, path)
        try toCompressor?.open(handle, path: path)
    }

    /// Writes the end of the archive and flushes the compressor.
    func close() throws(AlbumKitError) {
        closed = true
        do {
            try checked { () throws(AlbumKitError) in try ArchiveStatus.check(archive_write_close(handle), handle, .fileSystem, path) }
        } catch {
            compressor?.abandon()
            throw error
        }
        try compressor?.finish()
        if compressor == nil { try padToWholeRecords() }
    }

    /// Pads a plain tar's file, from its start, to whole records.
    private func padToWholeRecords() throws(AlbumKitError) {
        let end = lseek(descriptor, 0, SEEK_CUR)
        guard end >= 0 else { throw .fileSystem(path, "find the end of the archive", errno: errno) }
        let record = Int(Self.tarRecord)
        let zeros = [UInt8](repeating: 0, count: (record - Int(end) % record) % record)
        do {
            try zeros.withUnsafeBytes { try AtomicFile.writeAll(descriptor, $0, path: path) }
        } catch {
            throw error as? AlbumKitError ?? AlbumKitError(.fileSystem, "\(path): \(error)")
        }
        padding = Int64(zeros.count)
    }

    /// What `body` (a call on the handle) returns; when it throws once the compressor has
    /// stopped, the compressor's reason.
    @discardableResult
    private func checked<T>(_ body: () throws(AlbumKitError) -> T) throws(AlbumKitError) -> T {
        guard let toCompressor else { return try body() }
        return try toCompressor.checked(body)
    }

    /// Bytes written to the file (compressed); exact once the archive is closed.
    var bytesWritten: Int64 { compressor?.bytesWritten ?? archive_filter_bytes(handle, -1) + padding }
}

/// The bytes of a tar stream kept in memory as they are written: a bundle's first entries.
private final class CollectedOutput: BlockStage {
    private(set) var bytes = Data()

    func write(_ bytes: UnsafeRawBufferPointer) throws(AlbumKitError) { self.bytes.append(contentsOf: bytes) }
}
