import AlbumKit

/// The bytes under an archive file's compression layer, unpacked and checked to the very end
/// (SPEC 3): a damaged or truncated stream, a failed check (a gzip member's CRC or length, an
/// xz, zstd, bzip2 or lz4 check) or stored bytes after the stream's end are errors, raised no
/// later than the read that returns 0.
protocol UnpackedStream: AnyObject {
    /// Fills the front of `buffer` with the next unpacked bytes; 0 once the stream has ended
    /// and been checked whole.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ArchiveProblem) -> Int
    /// Stored (compressed) bytes taken so far.
    var storedBytesRead: Int64 { get }
}

extension CompressionLayer {
    /// The stream that unpacks this layer from `stored`; nil for `.none`.
    func unpacking(_ stored: StoredBytes) throws(ArchiveProblem) -> (any UnpackedStream)? {
        switch self {
        case .none: nil
        case .gzip: try GzipStream(stored)
        case .bzip2, .xz, .zstd, .lz4, .compress, .lzip, .lzma, .lzop, .lrzip, .grzip, .uuencode: try FilterStream(stored, layer: self)
        }
    }
}
