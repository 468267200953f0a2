/// "Did you mean …?" for a mistyped name: the closest known name by edit distance, when it is
/// close enough to be a likely typo.
public enum Suggestion {
    /// The known name closest to `name`, if at most a third of its letters (and at least one)
    /// differ.
    /// A known name that starts with `name` (`lockTimeout` → `lockTimeoutSeconds`) counts as
    /// one letter away.
    public static func closest(to name: String, among known: [String]) -> String? {
        let limit = max(2, name.count / 3)
        let lower = name.lowercased()
        let scored = known.map { candidate in
            let other = candidate.lowercased()
            return (candidate, other.hasPrefix(lower) || lower.hasPrefix(other) ? 1 : distance(lower, other))
        }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }), best.1 <= limit else { return nil }
        return best.0
    }

    /// ` (did you mean 'x'?)`, or "" when nothing is close.
    public static func phrase(for name: String, among known: [String]) -> String {
        closest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The Levenshtein distance between two strings.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where j <= b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
