/// Entries an input had that are not files of audio (links, devices), counted by reason so
/// that ten thousand of them make one warning, not ten thousand. (A track without an album
/// tag is a record that is not an album, named by the import: SPEC 9.)
struct SkipCount {
    enum Reason: Hashable {
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
            case .notAFile: what = count == 1 ? "entry is not a regular file and was skipped" : "entries are not regular files and were skipped"
            }
            return "\(input): \(count) \(what) (first: \(first))"
        }
    }
}
