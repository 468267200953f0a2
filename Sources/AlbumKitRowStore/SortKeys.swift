/// Sort keys for rows placed among others, so that inserting or moving an album writes its
/// own row and, rarely, a handful of neighbours — never every row after it.
///
/// Keys start ``spacing`` apart, so new rows take evenly spaced keys in the gap between their
/// neighbours. When a gap is too narrow, a window of rows around it is spread out again; the
/// window doubles until it has room, so inserting at position 2 of 100 000 rewrites a few
/// keys. Only the window is read from the database, never the whole order.
enum SortKeys {
    /// The distance between the keys of a freshly laid out library.
    static let spacing = 1024.0
    /// The smallest distance left between two keys.
    static let minimumGap = 1.0

    /// Keys `1·spacing`, `2·spacing`, … for `count` rows laid out afresh.
    static func laidOut(_ count: Int) -> [Double] { (0..<count).map { Double($0 + 1) * spacing } }

    /// `count` increasing keys strictly between `low` and `high` (nil: no neighbour on that
    /// side), at least ``minimumGap`` apart and from either neighbour; nil when they do not fit.
    static func between(_ low: Double?, _ high: Double?, count: Int) -> [Double]? {
        precondition(count > 0, "keys for at least one row")
        let slots = (0..<count).map { Double($0 + 1) }
        switch (low, high) {
        case (nil, nil):
            return slots.map { $0 * spacing }
        case (let low?, nil):
            return slots.map { low + $0 * spacing }
        case (nil, let high?):
            return slots.map { high - (Double(count) + 1 - $0) * spacing }
        case (let low?, let high?):
            let step = (high - low) / Double(count + 1)
            guard step >= minimumGap else { return nil }
            return slots.map { low + $0 * step }
        }
    }

    /// A respread window: the rows at positions `window` of a library of `total` rows get new
    /// keys around `count` new rows that go in before position `gap` (inside the window or at
    /// its end). `below` and `above` are the keys just outside the window (nil at the library's
    /// ends). Returns the window rows' new keys and the new rows' keys, or nil when the window
    /// is too narrow to hold them ``minimumGap`` apart.
    static func respread(
        window: Range<Int>, total: Int, gap: Int, count: Int, below: Double?, above: Double?
    ) -> (window: [Double], new: [Double])? {
        let slots = window.count + count
        let low: Double, step: Double
        switch (below, above) {
        case (nil, nil):
            (low, step) = (0, spacing)
        case (let below?, nil):
            (low, step) = (below, spacing)
        case (nil, let above?):
            (low, step) = (above - spacing * Double(slots + 1), spacing)
        case (let below?, let above?):
            (low, step) = (below, (above - below) / Double(slots + 1))
            guard step >= minimumGap else { return nil }
        }
        let keys = (1...slots).map { low + step * Double($0) }
        let before = gap - window.lowerBound
        return (Array(keys[..<before] + keys[(before + count)...]), Array(keys[before..<(before + count)]))
    }

    /// The windows to try, narrowest first, for rows going in before position `gap` of a
    /// library of `total` rows: `radius` rows each side, the radius doubling, the last one the
    /// whole library.
    static func windows(around gap: Int, total: Int) -> [Range<Int>] {
        var windows: [Range<Int>] = []
        var radius = 1
        while windows.last != 0..<total {
            windows.append(max(0, gap - radius)..<min(total, gap + radius))
            radius *= 2
        }
        return windows
    }
}
