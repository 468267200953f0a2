import CArchive

/// The one compression layer an archive file may have over its archive format, told by its
/// first bytes (SPEC 2: "one compression layer over the archive at most").
///
/// Exactly this layer is unpacked, never libarchive's bidding over every filter: that bidding
/// stacks a decompressor for each layer it finds, so a few hundred bytes of gzip that unpack
/// to more gzip grow without end before the first entry is read (issue 16).
///
/// Every filter libarchive has is a layer here but rpm's, whose payload is itself compressed
/// (two layers), and `program`, which runs whatever program it is given. lzop, lrzip and grzip
/// streams are unpacked by libarchive through the program of that name when it is installed
/// (libarchive is built without their libraries); without it they are refused, with its words.
enum CompressionLayer: Equatable {
    case none, gzip, bzip2, xz, zstd, lz4, compress, lzip, lzma, lzop, lrzip, grzip, uuencode

    /// The longest first bytes ``init(prefix:)`` looks at.
    static let prefixLength = 9

    /// The layer `prefix` (the file's first bytes) starts with; `.none` for anything else,
    /// which the archive formats then judge.
    init(prefix: some Collection<UInt8>) {
        let bytes = Array(prefix.prefix(Self.prefixLength))
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
        } else if starts([0x1F, 0x9D]) {
            self = .compress
        } else if starts(Array("LZIP".utf8)) {
            self = .lzip
        } else if starts([0x5D, 0x00, 0x00]) {
            // The usual properties of an .lzma ("LZMA alone") stream, which has no magic.
            self = .lzma
        } else if starts([0x89, 0x4C, 0x5A, 0x4F, 0x00, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .lzop
        } else if starts(Array("LRZI".utf8)) {
            self = .lrzip
        } else if starts(Array("GRZipII".utf8)) {
            self = .grzip
        } else if starts(Array("begin ".utf8)) || starts(Array("begin-ba".utf8)) {
            // uuencode's `begin 644 name` and `begin-base64 644 name`.
            self = .uuencode
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
        case .compress: "compress (.Z)"
        case .lzip: "lzip"
        case .lzma: "lzma"
        case .lzop: "lzop"
        case .lrzip: "lrzip"
        case .grzip: "grzip"
        case .uuencode: "uuencode"
        }
    }

    /// libarchive's filter for this layer (gzip is unpacked by zlib, see ``GzipStream``).
    var libarchiveFilter: ((OpaquePointer?) -> Int32)? {
        switch self {
        case .bzip2: archive_read_support_filter_bzip2
        case .xz: archive_read_support_filter_xz
        case .zstd: archive_read_support_filter_zstd
        case .lz4: archive_read_support_filter_lz4
        case .compress: archive_read_support_filter_compress
        case .lzip: archive_read_support_filter_lzip
        case .lzma: archive_read_support_filter_lzma
        case .lzop: archive_read_support_filter_lzop
        case .lrzip: archive_read_support_filter_lrzip
        case .grzip: archive_read_support_filter_grzip
        case .uuencode: archive_read_support_filter_uu
        case .none, .gzip: nil
        }
    }
}
