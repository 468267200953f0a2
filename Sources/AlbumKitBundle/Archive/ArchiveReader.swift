import AlbumKit
import CArchive

/// One libarchive read handle (`archive *`) and the entry it is on, freed in `deinit`.
///
/// Reads an archive file — tar (ustar, pax, GNU, v7), zip, 7z, rar (v4 and v5), cpio, ISO 9660,
/// ar, cab, lha, xar or warc, under at most one compression layer (``CompressionLayer``: gzip,
/// bzip2, xz, zstd, lz4, compress, lzip, lzma, …) — or
/// walks a folder, entry by entry, through the same calls. Links are reported as links and
/// never followed.
///
/// An uncompressed archive is opened directly (seekable, as 7z and zip want). A compressed one
/// is read by two handles: a ``StreamFeed`` over the one layer's ``UnpackedStream`` feeds this
/// handle, which parses the format and supports no filter at all, so that an archive inside
/// the layer that is itself compressed is refused, never unpacked again. Once the format ends,
/// ``nextEntry(number:)`` drains the stream to its end so that its checks run. Not `Sendable`:
/// it stays inside one owner.
final class ArchiveReader {
    /// The archive or folder, as messages name it.
    let path: String
    private let handle: OpaquePointer
    /// The entry the folder walk fills in; file reading uses libarchive's own.
    private let folderEntry: OpaquePointer?
    /// The stored bytes (nil for a folder); kept open for as long as the handle reads them.
    private let stored: StoredBytes?
    /// The compression layer's stream, for a compressed archive.
    private let feed: StreamFeed?

    /// Opens the archive file at `path`; its compressed stream may unpack to `unpackedLimit` bytes.
    convenience init(file path: String, unpackedLimit: Int64) throws(AlbumKitError) {
        try self.init(stored: try StoredBytes(file: path), unpackedLimit: unpackedLimit)
    }

    /// Reads an archive held in memory; `name` names it in messages.
    convenience init(bytes: some Collection<UInt8>, name: String, unpackedLimit: Int64) throws(AlbumKitError) {
        try self.init(stored: StoredBytes(copying: bytes, name: name), unpackedLimit: unpackedLimit)
    }

    private init(stored: StoredBytes, unpackedLimit: Int64) throws(AlbumKitError) {
        guard let handle = archive_read_new() else { throw ArchiveProblem.cannotStart.error(stored.name) }
        path = stored.name
        self.handle = handle
        self.stored = stored
        folderEntry = nil
        let layer = CompressionLayer(prefix: stored.prefix(CompressionLayer.prefixLength))
        do {
            feed = try layer.unpacking(stored).map { StreamFeed($0, limit: unpackedLimit) }
        } catch {
            archive_read_free(handle)
            throw error.error(stored.name)
        }
        for enable in Self.formats {
            try ArchiveStatus.check(enable(handle), handle, .unsupported, path)
        }
        let opened = feed?.attach(to: handle) ?? stored.attach(to: handle)
        if opened != ARCHIVE_OK, let feed, feed.failure == nil, case let inner = CompressionLayer(prefix: feed.head), inner != .none {
            throw AlbumKitError(.unreadableInput, "\(path): the \(layer.name) stream holds another compressed stream (\(inner.name)); an archive may have one compression layer at most")
        }
        try check(opened, .unreadableInput, path)
    }

    /// Every format libarchive has but mtree (its entries name files on this machine, which are
    /// never read) and raw (which takes any bytes as one entry); xar only from libarchive 3.7.4,
    /// before which a 388-byte xar whose entries link to each other loops for ever (its
    /// test_read_format_xar_doublelink, libarchive #2123).
    private static let formats: [@Sendable (OpaquePointer?) -> Int32] = {
        var formats: [@Sendable (OpaquePointer?) -> Int32] = [
            archive_read_support_format_tar, archive_read_support_format_zip, archive_read_support_format_7zip,
            archive_read_support_format_rar, archive_read_support_format_rar5, archive_read_support_format_cpio,
            archive_read_support_format_iso9660, archive_read_support_format_empty, archive_read_support_format_ar,
            archive_read_support_format_cab, archive_read_support_format_lha, archive_read_support_format_warc,
        ]
        if archive_version_number() >= 3_007_004 { formats.append(archive_read_support_format_xar) }
        return formats
    }()

    /// Whether the file at `path` is an archive this reader reads: its first entry's header
    /// reads, under its compression layer if any (unpacking at most 1 MiB to get there). What
    /// a format's signature alone misses, it finds: a v7 tar, a zip after other bytes, an ISO
    /// image's descriptor 32 KiB in.
    static func reads(file path: String) -> Bool {
        guard let reader = try? ArchiveReader(file: path, unpackedLimit: 1 << 20) else { return false }
        return (try? reader.nextEntry(number: 1)) != nil
    }

    /// Walks the folder at `path` and everything under it.
    init(folder path: String) throws(AlbumKitError) {
        guard let handle = archive_read_disk_new(), let entry = archive_entry_new() else {
            throw ArchiveProblem.cannotStart.error(path)
        }
        self.path = path
        self.handle = handle
        folderEntry = entry
        stored = nil
        feed = nil
        try ArchiveStatus.check(archive_read_disk_set_symlink_physical(handle), handle, .unsupported, path)
        let behavior = ARCHIVE_READDISK_NO_XATTR | ARCHIVE_READDISK_NO_ACL | ARCHIVE_READDISK_NO_FFLAGS
        try ArchiveStatus.check(archive_read_disk_set_behavior(handle, behavior), handle, .unsupported, path)
        try ArchiveStatus.check(archive_read_disk_open(handle, path), handle, .unreadableInput, path)
    }

    deinit {
        archive_read_free(handle)
        if let folderEntry { archive_entry_free(folderEntry) }
    }

    /// The next entry, or nil at the end (after the compressed stream, if any, has been read
    /// and checked to its end). `number` (1-based) names it when its name cannot.
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
        try check(code, .unreadableInput, "\(path) entry #\(number)")
        guard code != ARCHIVE_EOF, let entry else {
            do {
                try feed?.drain()
            } catch {
                throw error.error(path)
            }
            return nil
        }
        let described = ArchiveEntry(entry, number: number, below: folderEntry != nil ? path : nil)
        if folderEntry != nil, described.kind == .directory, archive_read_disk_can_descend(handle) != 0 {
            try ArchiveStatus.check(archive_read_disk_descend(handle), handle, .unreadableInput, "\(path) entry #\(number)")
        }
        return described
    }

    /// Reads the current entry's next bytes into `buffer`; 0 at its end.
    func read(into buffer: UnsafeMutableRawBufferPointer, entry: String) throws(AlbumKitError) -> Int {
        let count = archive_read_data(handle, buffer.baseAddress, buffer.count)
        // Unlike the other calls, a warning here (a zip entry's bad CRC) is a failure: no bytes came.
        if count < 0, let failure = feed?.failure { throw failure.error("\(path) entry \(entry)") }
        return try ArchiveStatus.count(count, handle, .unreadableInput, "\(path) entry \(entry)")
    }

    /// Skips the rest of the current entry's bytes.
    func skip(entry: String) throws(AlbumKitError) {
        try check(archive_read_data_skip(handle), .unreadableInput, "\(path) entry \(entry)")
    }

    /// Stored bytes read so far (compressed, as in the file).
    var storedBytesRead: Int64 {
        if let feed { return feed.storedBytesRead }
        return stored == nil ? 0 : archive_filter_bytes(handle, -1)
    }

    /// How many bytes are stored; nil for a folder.
    var storedSize: Int64? { stored?.size }

    /// Where the current entry's bytes start in the unpacked stream; the offset in the file
    /// when ``isUncompressedFile`` holds.
    var dataOffset: Int64 { archive_filter_bytes(handle, 0) }

    /// Whether the archive is an uncompressed tar file (offsets are file offsets).
    var isUncompressedFile: Bool {
        feed == nil && stored?.isFile == true && archive_format(handle) & ARCHIVE_FORMAT_BASE_MASK == ARCHIVE_FORMAT_TAR
    }

    /// Like ``ArchiveStatus/check(_:_:_:_:)``, but a failure of the compressed stream under
    /// the format is reported as itself, not as libarchive's complaint about missing bytes.
    private func check(_ code: Int32, _ kind: AlbumKitError.Kind, _ subject: @autoclosure () -> String) throws(AlbumKitError) {
        guard code != ARCHIVE_OK, code != ARCHIVE_EOF, code != ARCHIVE_WARN else { return }
        if let failure = feed?.failure { throw failure.error(subject()) }
        try ArchiveStatus.check(code, handle, kind, subject())
    }
}
