import AlbumKit
import CArchive

/// One libarchive read handle (`archive *`) and the entry it is on, freed in `deinit`.
///
/// Reads an archive file (tar in its ustar, pax and GNU forms, or zip; plain or gzip, bzip2,
/// xz or zstd compressed) or walks a folder, entry by entry, through the same calls. Links are
/// reported as links and never followed. Not `Sendable`: it stays inside one owner.
final class ArchiveReader {
    /// The archive or folder, as messages name it.
    let path: String
    private let handle: OpaquePointer
    private let isFolder: Bool
    /// The entry the folder walk fills in; file reading uses libarchive's own.
    private let folderEntry: OpaquePointer?

    /// Opens the archive file at `path`.
    init(file path: String, blockSize: Int = 64 * 1024) throws(AlbumKitError) {
        guard let handle = archive_read_new() else { throw AlbumKitError(.fileSystem, "\(path): cannot start libarchive") }
        self.path = path
        self.handle = handle
        self.isFolder = false
        self.folderEntry = nil
        for enable in [
            archive_read_support_filter_gzip, archive_read_support_filter_bzip2, archive_read_support_filter_xz,
            archive_read_support_filter_zstd, archive_read_support_format_tar, archive_read_support_format_gnutar,
            archive_read_support_format_zip, archive_read_support_format_empty,
        ] {
            try ArchiveStatus.check(enable(handle), handle, .unsupported, path)
        }
        try ArchiveStatus.check(archive_read_open_filename(handle, path, blockSize), handle, .unreadableInput, path)
    }

    /// Walks the folder at `path` and everything under it.
    init(folder path: String) throws(AlbumKitError) {
        guard let handle = archive_read_disk_new(), let entry = archive_entry_new() else {
            throw AlbumKitError(.fileSystem, "\(path): cannot start libarchive")
        }
        self.path = path
        self.handle = handle
        self.isFolder = true
        self.folderEntry = entry
        try ArchiveStatus.check(archive_read_disk_set_symlink_physical(handle), handle, .unsupported, path)
        let behavior = ARCHIVE_READDISK_NO_XATTR | ARCHIVE_READDISK_NO_ACL | ARCHIVE_READDISK_NO_FFLAGS
        try ArchiveStatus.check(archive_read_disk_set_behavior(handle, behavior), handle, .unsupported, path)
        try ArchiveStatus.check(archive_read_disk_open(handle, path), handle, .unreadableInput, path)
    }

    deinit {
        archive_read_free(handle)
        if let folderEntry { archive_entry_free(folderEntry) }
    }

    /// The next entry, or nil at the end. `number` (1-based) names it when its name cannot.
    func nextEntry(number: Int) throws(AlbumKitError) -> ArchiveEntry? {
        let entry: OpaquePointer?
        let code: Int32
        if let folderEntry {
            code = archive_read_next_header2(handle, folderEntry)
            entry = folderEntry
        } else {
            var next: OpaquePointer?
            code = archive_read_next_header(handle, &next)
            entry = next
        }
        try ArchiveStatus.check(code, handle, .unreadableInput, "\(path) entry #\(number)")
        guard code != ARCHIVE_EOF, let entry else { return nil }
        let described = ArchiveEntry(entry, number: number, below: isFolder ? path : nil)
        if isFolder, described.kind == .directory, archive_read_disk_can_descend(handle) != 0 {
            try ArchiveStatus.check(archive_read_disk_descend(handle), handle, .unreadableInput, "\(path) entry #\(number)")
        }
        return described
    }

    /// Reads the current entry's next bytes into `buffer`; 0 at its end.
    func read(into buffer: UnsafeMutableRawBufferPointer, entry: String) throws(AlbumKitError) -> Int {
        try ArchiveStatus.count(archive_read_data(handle, buffer.baseAddress, buffer.count), handle, .unreadableInput, "\(path) entry \(entry)")
    }

    /// Skips the rest of the current entry's bytes.
    func skip(entry: String) throws(AlbumKitError) {
        try ArchiveStatus.check(archive_read_data_skip(handle), handle, .unreadableInput, "\(path) entry \(entry)")
    }

    /// Bytes read from the file so far (compressed, as stored).
    var storedBytesRead: Int64 { isFolder ? 0 : archive_filter_bytes(handle, -1) }

    /// Where the current entry's bytes start in the unpacked stream; the offset in the file
    /// when ``isUncompressedFile`` holds.
    var dataOffset: Int64 { archive_filter_bytes(handle, 0) }

    /// Whether the archive is a file read with no decompression (offsets are file offsets).
    var isUncompressedFile: Bool { !isFolder && archive_filter_count(handle) == 1 && archive_format(handle) & ARCHIVE_FORMAT_BASE_MASK == ARCHIVE_FORMAT_TAR }
}

/// What an entry header says, copied out of libarchive.
struct ArchiveEntry {
    /// What kind of thing the entry is.
    enum Kind: Equatable {
        case file
        case directory
        /// A symbolic or hard link, device, FIFO or socket, described in words.
        case refused(String)
    }

    /// The 1-based position in the archive.
    let number: Int
    /// The name's bytes as stored; nil when libarchive could not give them.
    let rawName: [UInt8]?
    let kind: Kind
    /// The size the header declares, if it declares one.
    let declaredSize: Int64?

    /// Describes `entry`; a folder walk names entries by their full path, which `folder`
    /// (the walked folder) is taken off.
    init(_ entry: OpaquePointer, number: Int, below folder: String?) {
        self.number = number
        let name = archive_entry_pathname(entry) ?? archive_entry_pathname_utf8(entry)
        let bytes = name.map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } }
        if let bytes, let folder, bytes.starts(with: folder.utf8) {
            rawName = Array(bytes.dropFirst(folder.utf8.count).drop { $0 == UInt8(ascii: "/") })
        } else {
            rawName = bytes
        }
        declaredSize = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
        let type = archive_entry_filetype(entry)
        if archive_entry_hardlink(entry) != nil {
            kind = .refused("a hard link")
        } else if folder != nil, type & 0o170000 == 0o100000, archive_entry_nlink(entry) > 1 {
            // In a folder, a file's other names may lie outside it: reading it would read
            // whatever it is linked to.
            kind = .refused("a file with \(archive_entry_nlink(entry)) hard links")
        } else if archive_entry_symlink(entry) != nil {
            kind = .refused("a symbolic link")
        } else {
            switch type & 0o170000 {
            case 0o100000: kind = .file
            case 0o040000: kind = .directory
            case 0o120000: kind = .refused("a symbolic link")
            case 0o020000, 0o060000: kind = .refused("a device file")
            case 0o010000: kind = .refused("a FIFO")
            case 0o140000: kind = .refused("a socket")
            default: kind = .refused("of unknown type \(String(type, radix: 8))")
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
