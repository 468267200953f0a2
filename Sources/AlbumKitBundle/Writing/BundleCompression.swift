import AlbumKit

/// How a written bundle is compressed, decided by its name (SPEC 3).
public enum BundleCompression: String, Sendable, CaseIterable {
    case gzip, zstd, xz, none

    /// The compression `path` asks for: `.tar.gz`/`.tgz`, `.tar.zst`, `.tar.xz` or `.tar`.
    public init(path: String) throws {
        guard case .bundle(let name) = try ExportFormat(path: path), let compression = Self(rawValue: name) else {
            throw AlbumKitError(.unsupported, "\(path): a bundle must be named .tar.gz, .tgz, .tar.zst, .tar.xz or .tar")
        }
        self = compression
    }
}
