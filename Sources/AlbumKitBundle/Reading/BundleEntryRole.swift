import AlbumKit

/// What a file at a path inside a bundle is for (SPEC 3).
enum BundleEntryRole {
    case manifest, list(json: Bool), state, checksums, cover(CoverKey)
    /// A file the bundle does not know: read for its checksum, otherwise ignored.
    case other
    /// A file outside the bundle (beside the one folder the bundle sits in).
    case outside

    /// The role of the file at `relative` inside the bundle; nil means outside it.
    init(_ relative: EntryPath?) {
        guard let relative else {
            self = .outside
            return
        }
        // Matched on the whole path, not split: every entry of an archive comes through here.
        switch relative.description {
        case "manifest.json": self = .manifest
        case "albums.json": self = .list(json: true)
        case "albums.plist": self = .list(json: false)
        case "state.json": self = .state
        case ChecksumList.entryName: self = .checksums
        case let path where CoverReference.isInFolder(path):
            // `covers/<sha256>.<ext>`; a deeper path has a `/` in what would be its extension.
            self = CoverKey(fileName: path).map(Self.cover) ?? .other
        default: self = .other
        }
    }

    /// Whether the file is one a bundle is made of (so where it lies tells where the bundle is).
    var isBundleFile: Bool {
        switch self {
        case .other, .outside: false
        default: true
        }
    }

    /// Whether the reader needs the entry's bytes, not just their hash.
    var keepsBytes: Bool { isBundleFile }
}
