import AlbumKit

/// How a written bundle is compressed, decided by its name (SPEC 3).
public enum BundleCompression: String, Sendable, CaseIterable {
    case gzip, zstd, xz, none

    /// Each compression's file endings, longest first where one ends another.
    static let endings: [(ending: String, compression: BundleCompression)] = [
        (".tar.gz", .gzip), (".tgz", .gzip), (".tar.zst", .zstd), (".tar.xz", .xz), (".tar", .none),
    ]

    /// The compression `path` asks for: `.tar.gz`/`.tgz`, `.tar.zst`, `.tar.xz` or `.tar`.
    public init(path: String) throws(AlbumKitError) {
        let name = path.lowercased()
        guard let match = Self.endings.first(where: { name.hasSuffix($0.ending) }) else {
            throw AlbumKitError(.unsupported, "\(path): a bundle must be named \(Self.endings.map(\.ending).joined(separator: ", "))")
        }
        self = match.compression
    }
}
