/// What an input had that no album keeps — entries that are not files of audio (links,
/// devices), pictures past the one cover an album has — counted by reason so that ten thousand
/// of them make one warning, not ten thousand (SPEC 9: nothing is dropped without a line
/// saying what and why). (A track without an album tag is a record that is not an album,
/// named by the import: SPEC 9.)
struct SkipCount {
    enum Reason: Hashable {
        /// Not a regular file (a link, a device).
        case notAFile
        /// A picture a file embeds besides the one read as its cover (a back cover, a booklet
        /// page, the artist).
        case otherPicture
        /// A track's cover that differs from the one its album already took from an earlier track.
        case unlikeCover
        /// A folder's `cover.jpg`/`folder.jpg` that none of its albums needs: they embed a cover.
        case unusedFolderImage
    }

    private var counts: [Reason: (count: Int, first: String)] = [:]
    private var order: [Reason] = []

    /// Counts `count` skipped things, named by `label`.
    mutating func note(_ reason: Reason, _ label: String, count: Int = 1) {
        guard count > 0 else { return }
        if let seen = counts[reason] {
            counts[reason] = (seen.count + count, seen.first)
        } else {
            counts[reason] = (count, label)
            order.append(reason)
        }
    }

    /// One sentence per reason.
    func warnings(input: String) -> [String] {
        order.compactMap { reason in
            guard let (count, first) = counts[reason] else { return nil }
            let one = count == 1
            let what: String
            switch reason {
            case .notAFile:
                what = one ? "entry is not a regular file and was skipped" : "entries are not regular files and were skipped"
            case .otherPicture:
                what = "embedded picture\(one ? "" : "s") besides the one read as the cover (back covers, booklets, artists) not kept: an album keeps one cover"
            case .unlikeCover:
                what = "track\(one ? "" : "s") embed\(one ? "s" : "") a cover unlike the one \(one ? "its" : "their") album took from an earlier track; not kept: an album keeps one cover"
            case .unusedFolderImage:
                what = "folder image\(one ? "" : "s") (\(AlbumGrouper.folderImageNames.joined(separator: ", "))) not used: the albums beside \(one ? "it" : "them") embed a cover"
            }
            return "\(input): \(count) \(what) (first: \(first))"
        }
    }
}
