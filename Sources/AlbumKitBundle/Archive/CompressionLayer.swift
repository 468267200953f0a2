import CArchive

/// The one compression layer an archive file may have over its archive format, told by its
/// first bytes (SPEC 2: "one compression layer over the archive at most").
///
/// Exactly this layer is unpacked, never libarchive's bidding over every filter: that bidding
/// stacks a decompressor for each layer it finds, so a few hundred bytes of gzip that unpack
/// to more gzip grow without end before the first entry is read (issue 16).
enum CompressionLayer: Equatable {
    case none, gzip, bzip2, xz, zstd, lz4

    /// The layer `prefix` (the file's first bytes) starts with; `.none` for anything else,
    /// which the archive formats then judge.
    init(prefix: some Collection<UInt8>) {
        let bytes = Array(prefix.prefix(6))
        func starts(_ magic: [UInt8]) -> Bool { bytes.starts(with: magic) }
        if starts([0x1F, 0x8B]) {
            self = .gzip
        } else if starts(Array("BZh".utf8)) {
            self = .bzip2
        } else if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) {
            self = .xz
        } else if starts([0x28, 0xB5, 0x2F, 0xFD]) {
            self = .zstd
        } else if starts([0x04, 0x22, 0x4D, 0x18]) || starts([0x02, 0x21, 0x4C, 0x18]) {
            // The lz4 frame format, and the legacy format `lz4 -l` writes.
            self = .lz4
        } else {
            self = .none
        }
    }

    /// The name messages use ("the xz stream is corrupt").
    var name: String {
        switch self {
        case .none: "uncompressed"
        case .gzip: "gzip"
        case .bzip2: "bzip2"
        case .xz: "xz"
        case .zstd: "zstd"
        case .lz4: "lz4"
        }
    }

    /// libarchive's filter for this layer (gzip is unpacked by zlib, see ``GzipStream``).
    var libarchiveFilter: ((OpaquePointer?) -> Int32)? {
        switch self {
        case .bzip2: archive_read_support_filter_bzip2
        case .xz: archive_read_support_filter_xz
        case .zstd: archive_read_support_filter_zstd
        case .lz4: archive_read_support_filter_lz4
        case .none, .gzip: nil
        }
    }
}
