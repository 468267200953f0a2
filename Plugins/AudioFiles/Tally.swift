/// Counts how often each value comes, for "the most common genre tag" of an album.
///
/// Bounded: it counts at most ``capacity`` distinct values (the first ones seen); later new
/// values are not counted. An album's tracks rarely carry more than a few genres or years,
/// and an album of thousands of tracks with thousands of distinct values stays small.
struct Tally {
    /// The most distinct values counted.
    static let capacity = 32

    private var counts: [String: Int] = [:]
    /// The values in the order first seen, for ties.
    private var order: [String] = []

    /// Counts one more `value`.
    mutating func add(_ value: String) {
        if let count = counts[value] {
            counts[value] = count + 1
        } else if order.count < Self.capacity {
            counts[value] = 1
            order.append(value)
        }
    }

    /// The values counted, in the order first seen.
    var values: [String] { order }

    /// The value counted most often; the first seen among equals; nil when none was counted.
    var mostCommon: String? {
        var best: (value: String, count: Int)?
        for value in order where counts[value, default: 0] > best?.count ?? 0 {
            best = (value, counts[value, default: 0])
        }
        return best?.value
    }
}
