import Foundation

/// Walks a folder tree depth first in name order, one entry at a time, never following a
/// link (an input's links may point anywhere), reporting the `album.nfo` files it passes.
/// Only a folder's names are held, never a whole tree's.
struct KodiFolderWalk {
    /// What one step met.
    enum Step {
        case nfo(URL)
        /// An `album.nfo`, or a link that leads to a folder or nowhere (a loop, a broken link),
        /// that is a link: not followed, where albums may lie.
        case link(String)
        /// Anything else.
        case other
    }

    private let maxDepth: Int
    private var pending: [(url: URL, depth: Int)]

    /// A walk of the tree at `root`, descending at most `maxDepth` folders.
    init(root: URL, maxDepth: Int) {
        self.maxDepth = maxDepth
        pending = [(root, 0)]
    }

    /// Kodi names the file `album.nfo`; file systems and people vary its case.
    static func isAlbumNFO(_ name: String) -> Bool { name.lowercased() == "album.nfo" }

    /// The next step; nil when the walk is done.
    mutating func nextEntry() -> Step? {
        guard let (url, depth) = pending.popLast() else { return nil }
        let values = try? url.resourceValues(forKeys: [.isSymbolicLinkKey, .isDirectoryKey, .isRegularFileKey])
        if depth > 0, values?.isSymbolicLink == true {
            // Whether it leads to a file is asked of stat, which follows the link once and
            // reports a loop as an error; the walk itself never follows it.
            var isFolder: ObjCBool = false
            let leadsToFile = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && !isFolder.boolValue
            return Self.isAlbumNFO(url.lastPathComponent) || !leadsToFile ? .link(url.path) : .other
        }
        if values?.isDirectory == true {
            if depth < maxDepth, let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) {
                for name in names.sorted(by: >) { pending.append((url.appendingPathComponent(name), depth + 1)) }
            }
            return .other
        }
        return values?.isRegularFile == true && Self.isAlbumNFO(url.lastPathComponent) ? .nfo(url) : .other
    }
}
