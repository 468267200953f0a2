import AlbumKit
import CArchive

/// A layer other than gzip (bzip2, xz, zstd, lz4, …) unpacked by one libarchive handle that reads no archive
/// format (the "raw" format) through exactly one filter, so that layers never stack.
///
/// The libraries under these filters check their own streams (block CRCs, the xz check, the
/// zstd and lz4 checksums). What libarchive does not check is what follows the last frame:
/// bzip2 and lz4 stop quietly at bytes that start no other frame. At the end the filter must
/// therefore have taken every stored byte: libarchive's `archive_filter_bytes` for the last
/// filter (the file) counts the bytes consumed, not the bytes read ahead.
final class FilterStream: UnpackedStream {
    private let stored: StoredBytes
    private let layer: CompressionLayer
    private let handle: OpaquePointer
    private var finished = false

    init(_ stored: StoredBytes, layer: CompressionLayer) throws(ArchiveProblem) {
        guard let handle = archive_read_new() else { throw ArchiveProblem.cannotStart }
        self.stored = stored
        self.layer = layer
        self.handle = handle
        // ARCHIVE_WARN: the filter will run the program of its name (lzop, lrzip, grzip).
        guard archive_read_support_format_raw(handle) == ARCHIVE_OK, [ARCHIVE_OK, ARCHIVE_WARN].contains(layer.libarchiveFilter?(handle)) else {
            throw ArchiveProblem(.unsupported, "this libarchive cannot read \(layer.name) streams")
        }
        try check(stored.attach(to: handle))
        var entry: OpaquePointer?
        try check(archive_read_next_header(handle, &entry))
        // The raw format takes anything: make sure the layer's filter, and only it, was applied.
        guard archive_filter_count(handle) == 2 else {
            throw ArchiveProblem(.unreadableInput, "not a valid \(layer.name) stream")
        }
    }

    deinit { archive_read_free(handle) }

    var storedBytesRead: Int64 { archive_filter_bytes(handle, -1) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ArchiveProblem) -> Int {
        guard !finished else { return 0 }
        let count = archive_read_data(handle, buffer.baseAddress, buffer.count)
        guard count >= 0 else { throw corrupt() }
        if count == 0 {
            finished = true
            guard storedBytesRead == stored.size else {
                throw ArchiveProblem(.unreadableInput, "data follows the end of the \(layer.name) stream (at byte \(storedBytesRead)); the file is corrupt")
            }
        }
        return count
    }

    private func check(_ code: Int32) throws(ArchiveProblem) {
        guard code == ARCHIVE_OK || code == ARCHIVE_WARN else { throw corrupt() }
    }

    private func corrupt() -> ArchiveProblem {
        ArchiveProblem(.unreadableInput, "the \(layer.name) stream is corrupt or truncated (\(ArchiveStatus.message(handle)))")
    }
}
