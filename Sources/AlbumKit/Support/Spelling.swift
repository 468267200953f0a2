/// "Did you mean …?" for names people type: the known name closest to a misspelling.
public enum Spelling {
    /// The name in `candidates` closest to `typed` (ignoring case), when it is close enough
    /// to be a likely typo: at most half the longer name's letters differ (`yr` → `year`),
    /// and no more than three. A name that starts with the other (`lockTimeout` →
    /// `lockTimeoutSeconds`) counts as one letter away. Nil when nothing is that close.
    public static func closest(to typed: String, among candidates: some Sequence<String>) -> String? {
        let word = Array(typed.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            let distance = other.starts(with: word) || word.starts(with: other) ? 1 : editDistance(word, other)
            let allowed = min(3, max(1, max(word.count, candidate.count) / 2))
            if distance <= allowed, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The name in `candidates` at most two letters from `typed` (ignoring case; a name that
    /// only starts with the other does not count): for a name that is valid as it stands (a
    /// field of your own), which is taken for a typo only when it is that close to a known one.
    public static func typo(of typed: String, among candidates: some Sequence<String>) -> String? {
        guard let close = closest(to: typed, among: candidates),
            editDistance(Array(typed.lowercased()), Array(close.lowercased())) <= 2
        else { return nil }
        return close
    }

    /// ` (did you mean 'NAME'?)` for the closest candidate, or "" when none is close.
    public static func suggestion(for typed: String, among candidates: some Sequence<String>, prefix: String = "") -> String {
        closest(to: typed, among: candidates).map { " (did you mean '\(prefix)\($0)'?)" } ?? ""
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and
    /// swaps of two neighbours (`lsit` → `list`) each count one.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
