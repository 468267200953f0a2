import AlbumKit

/// An entry name that is safe to interpret: valid UTF-8, relative, without `..` or `\`,
/// with `.` and empty components folded away. Anything else is refused with an error
/// that names the archive and the entry.
///
/// Kept as one string, the components joined with `/`: a reader holds a path for every entry
/// of an archive, and for a bundle of 100 000 covers it holds each path in several places.
struct EntryPath: Hashable, CustomStringConvertible {
    /// The components joined with `/`; empty for no components.
    let description: String

    /// The components, none of them empty, `.` or `..`.
    var components: [String] { Self.split(description) }

    /// The last component; empty for no components.
    var lastComponent: String {
        guard let slash = description.utf8.lastIndex(of: Self.separator) else { return description }
        return String(Substring(description.utf8[description.utf8.index(after: slash)...]))
    }

    /// Whether the path has no components (the archive's root).
    var isEmpty: Bool { description.isEmpty }

    /// Checks the name of `entry`, read from `archive`.
    init(_ entry: ArchiveEntry, archive: String) throws(AlbumKitError) {
        guard let raw = entry.rawName else {
            throw Self.refusal(archive, "entry #\(entry.number)", "its name is not valid UTF-8")
        }
        guard let text = String(validating: raw, as: UTF8.self) else {
            let shown = String(decoding: raw, as: UTF8.self)
            throw Self.refusal(archive, "entry #\(entry.number) ('\(shown)')", "its name is not valid UTF-8")
        }
        try self.init(text, subject: "\(archive) entry \(text)")
    }

    /// Checks `text`, a name as an archive or a checksum line gives it; `subject` names it in errors.
    /// Separators are bytes, as a file system reads them: a `/` followed by a combining mark
    /// still separates, and starts an absolute path.
    init(_ text: String, subject: @autoclosure () -> String) throws(AlbumKitError) {
        let bytes = text.utf8
        if bytes.contains(UInt8(ascii: "\\")) { throw AlbumKitError(.unreadableInput, "\(subject()): names holding '\\' are refused") }
        if bytes.first == Self.separator { throw AlbumKitError(.unreadableInput, "\(subject()): absolute paths are refused") }
        let parts = Self.split(text).filter { !$0.utf8.elementsEqual(".".utf8) }
        if parts.contains(where: { $0.utf8.elementsEqual("..".utf8) }) {
            throw AlbumKitError(.unreadableInput, "\(subject()): paths with '..' are refused")
        }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw AlbumKitError(.unreadableInput, "\(subject()): names holding control characters are refused")
        }
        description = parts.joined(separator: "/")
    }

    private init(description: String) { self.description = description }

    /// The path below the first component (the bundle inside a top-level folder).
    var droppingFirst: EntryPath {
        guard let slash = description.utf8.firstIndex(of: Self.separator) else { return EntryPath(description: "") }
        return EntryPath(description: String(Substring(description.utf8[description.utf8.index(after: slash)...])))
    }

    /// The path below `folder` when this path lies inside it, with at least one component below
    /// it; nil otherwise. Compares bytes, without splitting the path.
    func below(_ folder: String) -> EntryPath? {
        let bytes = description.utf8
        guard bytes.starts(with: folder.utf8), bytes.count > folder.utf8.count + 1 else { return nil }
        let slash = bytes.index(bytes.startIndex, offsetBy: folder.utf8.count)
        guard bytes[slash] == Self.separator else { return nil }
        return EntryPath(description: String(Substring(bytes[bytes.index(after: slash)...])))
    }

    /// The path below `folder`, a single component.
    func prepending(_ folder: String) -> EntryPath {
        EntryPath(description: isEmpty ? folder : folder + "/" + description)
    }

    private static let separator = UInt8(ascii: "/")

    /// The non-empty parts of `text` between `/` bytes.
    private static func split(_ text: String) -> [String] {
        text.utf8.split(separator: separator).map { String(Substring($0)) }
    }

    private static func refusal(_ archive: String, _ entry: String, _ problem: String) -> AlbumKitError {
        AlbumKitError(.unreadableInput, "\(archive) \(entry): \(problem)")
    }
}
