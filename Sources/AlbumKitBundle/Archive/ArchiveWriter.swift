import AlbumKit
import CArchive
import Foundation

/// One libarchive write handle (`archive *`) producing a pax tar, compressed as asked, into an
/// open file descriptor; freed in `deinit`. Not `Sendable`: it stays inside one owner.
final class ArchiveWriter {
    private let handle: OpaquePointer
    private let entry: OpaquePointer
    private let path: String
    private let modified: time_t

    /// Starts an archive written to `descriptor`; `path` names it in errors.
    init(descriptor: Int32, path: String, compression: BundleCompression, modified: Date = Date()) throws(AlbumKitError) {
        guard let handle = archive_write_new(), let entry = archive_entry_new() else {
            throw AlbumKitError(.fileSystem, "\(path): cannot start libarchive")
        }
        self.handle = handle
        self.entry = entry
        self.path = path
        self.modified = time_t(modified.timeIntervalSince1970)
        try ArchiveStatus.check(archive_write_set_format_pax_restricted(handle), handle, .unsupported, path)
        let filter: (OpaquePointer?) -> Int32 =
            switch compression {
            case .gzip: archive_write_add_filter_gzip
            case .zstd: archive_write_add_filter_zstd
            case .xz: archive_write_add_filter_xz
            case .none: archive_write_add_filter_none
            }
        try ArchiveStatus.check(filter(handle), handle, .unsupported, path)
        try ArchiveStatus.check(archive_write_open_fd(handle, descriptor), handle, .fileSystem, path)
    }

    deinit {
        archive_entry_free(entry)
        archive_write_free(handle)
    }

    /// Adds a regular file `name` holding `bytes`.
    func add(_ name: String, _ bytes: Data) throws {
        archive_entry_clear(entry)
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_filetype(entry, 0o100000)  // AE_IFREG, a cast macro that does not import
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_size(entry, Int64(bytes.count))
        archive_entry_set_mtime(entry, modified, 0)
        try ArchiveStatus.check(archive_write_header(handle, entry), handle, .fileSystem, "\(path) entry \(name)")
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = archive_write_data(handle, buffer.baseAddress! + offset, buffer.count - offset)
                offset += try ArchiveStatus.count(written, handle, .fileSystem, "\(path) entry \(name)")
            }
        }
    }

    /// Writes the end of the archive and flushes the compressor.
    func close() throws(AlbumKitError) {
        try ArchiveStatus.check(archive_write_close(handle), handle, .fileSystem, path)
    }

    /// Bytes written to the file so far (compressed).
    var bytesWritten: Int64 { archive_filter_bytes(handle, -1) }
}
