/// Where the bundle sits in an archive or folder: at the top, or under the one top-level
/// folder that holds it (SPEC 3: `tar czf b.tgz mybundle/`). Extra files and folders are
/// ignored wherever they come, so the first entry does not decide: the first file that a
/// bundle is made of does (`albums.json` at the top, `mybundle/manifest.json`,
/// `covers/<sha256>.png`). Until then entries are extras, kept only for their checksums.
struct BundleRoot {
    private enum State {
        /// `folder` is the one top-level folder every entry so far lies in; nil when there is
        /// none yet, or when entries lie in several places.
        case undecided(folder: String?, mixed: Bool)
        case top
        case folder(String)
    }

    private var state = State.undecided(folder: nil, mixed: false)

    /// The path of the entry at `path` inside the bundle; nil when it lies outside the bundle
    /// or before the bundle was found.
    mutating func locate(_ path: EntryPath, isFile: Bool) -> EntryPath? {
        guard !path.isEmpty else { return nil }
        if case .undecided(let folder, let mixed) = state { state = Self.decide(path, isFile: isFile, folder: folder, mixed: mixed) }
        switch state {
        case .top: return path
        case .folder(let folder): return path.below(folder)
        case .undecided: return nil
        }
    }

    /// The entry path of `relative`, a path inside the bundle (a `checksums.sha256` line).
    func entryPath(of relative: EntryPath) -> EntryPath {
        if case .folder(let folder) = state { return relative.prepending(folder) }
        return relative
    }

    /// The folder the bundle was looked for in, when all entries lay in one.
    var folder: String? {
        switch state {
        case .folder(let folder), .undecided(.some(let folder), false): folder
        default: nil
        }
    }

    /// `path` has at least one component. Runs only until the bundle is found.
    private static func decide(_ path: EntryPath, isFile: Bool, folder: String?, mixed: Bool) -> State {
        let parts = path.components
        let top = parts[0]
        if isFile, parts.count == 1 || top == "covers", BundleEntryRole(path).isBundleFile { return .top }
        if isFile, parts.count > 1, BundleEntryRole(path.droppingFirst).isBundleFile { return .folder(top) }
        let inOneFolder = parts.count > 1 || !isFile
        guard !mixed, inOneFolder, folder == nil || folder == top else { return .undecided(folder: nil, mixed: true) }
        return .undecided(folder: top, mixed: false)
    }
}
