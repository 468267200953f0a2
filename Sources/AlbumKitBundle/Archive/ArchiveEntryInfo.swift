/// One entry of an archive or folder as ``ArchiveEntryReader`` hands it out: its name already
/// checked (relative, valid UTF-8, no `..`, `\` or control characters, `.` and empty parts
/// folded away) and its kind one that can be read safely.
public struct ArchiveEntryInfo: Hashable, Sendable, CustomStringConvertible {
    /// What the entry is. Links, devices, FIFOs and sockets never get this far.
    public enum Kind: Hashable, Sendable {
        case file
        case directory
    }

    /// The checked path.
    let entryPath: EntryPath
    /// What the entry is.
    public let kind: Kind
    /// The size its header declares, if it declares one (zip entries written as a stream may
    /// not). The bytes read are counted whatever it says.
    public let declaredSize: Int64?
    /// The 1-based position in the archive.
    public let number: Int

    /// The path's components, none of them empty, `.` or `..`.
    public var components: [String] { entryPath.components }

    /// The path, components joined with `/` (no leading `./`, no trailing `/`).
    public var path: String { entryPath.description }

    /// The last component ("cover.jpg").
    public var fileName: String { entryPath.lastComponent }

    public var description: String { path }
}
