/// Counts values to find the most common one — an album's genre or year from its tracks'.
/// Ties go to the value seen first, so the result does not depend on hashing.
///
/// Bounded: it counts at most ``capacity`` distinct values (the first ones seen); later new
/// values are not counted. An album's tracks rarely carry more than a few genres or years,
/// and an album of thousands of tracks with thousands of distinct values stays small.
public struct Tally: Sendable {
    /// The most distinct values counted.
    public static let capacity = 32

    private var counts: [String: Int] = [:]
    /// The values in the order first seen, for ties.
    private var order: [String] = []

    /// An empty tally.
    public init() {}

    /// Counts `value` (`count` times); empty values are not counted, nor a new value once
    /// ``capacity`` are.
    public mutating func add(_ value: String, count: Int = 1) {
        guard !value.isEmpty, count > 0 else { return }
        if let seen = counts[value] {
            counts[value] = seen + count
        } else if order.count < Self.capacity {
            counts[value] = count
            order.append(value)
        }
    }

    /// How many values were counted.
    public var total: Int { counts.values.reduce(0, +) }

    /// Each value counted and how often, in the order first seen.
    public var seen: [(value: String, count: Int)] { order.map { ($0, counts[$0, default: 0]) } }

    /// The value counted most often (the first seen among equals); "" when none was counted.
    public var mostCommon: String {
        var best = ""
        var bestCount = 0
        for value in order where counts[value, default: 0] > bestCount {
            best = value
            bestCount = counts[value, default: 0]
        }
        return best
    }
}
