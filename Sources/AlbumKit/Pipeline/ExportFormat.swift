/// What `export PATH` writes, decided by the name (SPEC 3): bundles by their archive
/// ending, plain album lists by `.json` / `.plist`.
public enum ExportFormat: Sendable, Hashable {
    /// A JSON album list.
    case jsonList
    /// A property-list album list (XML).
    case plistList
    /// A bundle archive with this compression (`gzip`, `zstd`, `xz`, or `none`).
    case bundle(compression: String)

    /// The endings `export` understands, as listed in errors.
    public static let endings = [".tar.gz", ".tgz", ".tar.zst", ".tar.xz", ".tar", ".json", ".plist"]

    /// The format `path` asks for.
    public init(path: String) throws {
        let name = path.lowercased()
        if name.hasSuffix(".tar.gz") || name.hasSuffix(".tgz") {
            self = .bundle(compression: "gzip")
        } else if name.hasSuffix(".tar.zst") {
            self = .bundle(compression: "zstd")
        } else if name.hasSuffix(".tar.xz") {
            self = .bundle(compression: "xz")
        } else if name.hasSuffix(".tar") {
            self = .bundle(compression: "none")
        } else if name.hasSuffix(".json") {
            self = .jsonList
        } else if name.hasSuffix(".plist") {
            self = .plistList
        } else {
            throw AlbumKitError(.unsupported, "\(path): cannot tell what to write from the name; use one of \(Self.endings.joined(separator: ", "))")
        }
    }
}
