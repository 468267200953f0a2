/// Tracks and entries an input had that do not become part of an album, counted by reason
/// so that ten thousand untagged files make one warning, not ten thousand.
struct SkipCount {
    enum Reason: Hashable {
        case noAlbum
        case noArtist
        /// Not a regular file (a link, a device).
        case notAFile
    }

    private var counts: [Reason: (count: Int, first: String)] = [:]
    private var order: [Reason] = []

    /// Counts one skipped thing, named by `label`.
    mutating func note(_ reason: Reason, _ label: String) {
        if let seen = counts[reason] {
            counts[reason] = (seen.count + 1, seen.first)
        } else {
            counts[reason] = (1, label)
            order.append(reason)
        }
    }

    /// One sentence per reason.
    func warnings(input: String) -> [String] {
        order.compactMap { reason in
            guard let (count, first) = counts[reason] else { return nil }
            let what: String
            switch reason {
            case .noAlbum: what = count == 1 ? "track has no album tag and was skipped" : "tracks have no album tag and were skipped"
            case .noArtist: what = count == 1 ? "track has neither an artist nor an album-artist tag and was skipped" : "tracks have neither an artist nor an album-artist tag and were skipped"
            case .notAFile: what = count == 1 ? "entry is not a regular file and was skipped" : "entries are not regular files and were skipped"
            }
            return "\(input): \(count) \(what) (first: \(first))"
        }
    }
}
