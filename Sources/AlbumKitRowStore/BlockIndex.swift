/// The albums' sort keys cut into blocks of neighbouring keys, each with how many albums it
/// holds: a small table (about 200 rows for 100 000 albums) that turns a position into "the
/// n-th row from this key" and a key into a position, so a database finds position 50 000
/// by adding up a few hundred counts and counting at most a block's rows — not by stepping
/// over 50 000 rows, which SQL's `OFFSET` and `count(*)` would do.
///
/// Block `i` holds the keys from `lows[i]` up to, not including, `lows[i + 1]`; the first
/// block also holds every key below its own. A block's low key never changes: adding and
/// removing keys only changes counts, and a change that leaves a block empty, too small or
/// too large is settled by ``compact()`` and ``split(_:keys:)`` once per save.
public struct BlockIndex: Sendable, Hashable {
    /// How many keys a block gets when blocks are laid out or split.
    public static let target = 512
    /// A block holding more keys than this is split.
    public static let maximum = 2 * target
    /// A block holding fewer keys than this is merged into a neighbour.
    public static let minimum = target / 4

    /// The low key of each block, increasing.
    public private(set) var lows: [Double]
    /// How many keys each block holds.
    public private(set) var counts: [Int]
    /// How many keys all blocks hold.
    public private(set) var total: Int

    /// The blocks as stored, ordered by low key.
    public init(lows: [Double], counts: [Int]) {
        precondition(lows.count == counts.count, "one count per block")
        self.lows = lows
        self.counts = counts
        total = counts.reduce(0, +)
    }

    /// Blocks of ``target`` keys laid over `keys`, which are in increasing order.
    public init(laidOver keys: [Double]) {
        let starts = Array(stride(from: 0, to: keys.count, by: Self.target))
        self.init(lows: starts.map { keys[$0] }, counts: starts.map { min(Self.target, keys.count - $0) })
    }

    /// No keys at all.
    public static let empty = BlockIndex(lows: [], counts: [])

    // MARK: - Finding

    /// The block whose range holds `key` (0 when there are no blocks).
    public func block(holding key: Double) -> Int {
        var low = 0, high = lows.count  // the answer is the last block whose low is <= key
        while low < high {
            let middle = (low + high) / 2
            if lows[middle] <= key { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    /// The smallest key block `block`'s range holds (the first block: every key).
    public func lowerBound(of block: Int) -> Double { block == 0 ? -Double.greatestFiniteMagnitude : lows[block] }

    /// The key block `block`'s range stops before (the last block: none).
    public func upperBound(of block: Int) -> Double {
        block + 1 < lows.count ? lows[block + 1] : Double.greatestFiniteMagnitude
    }

    /// The position of block `block`'s first key.
    public func start(of block: Int) -> Int { counts[..<block].reduce(0, +) }

    /// The block holding position `position` (0-based, below ``total``) and how many of its
    /// keys come before it.
    public func locate(_ position: Int) -> (block: Int, offset: Int) {
        var start = 0
        for (block, count) in counts.enumerated() {
            if position < start + count { return (block, position - start) }
            start += count
        }
        preconditionFailure("position \(position) is past the \(total) keys")
    }

    // MARK: - Changing

    /// Counts a key added to the library.
    public mutating func add(_ key: Double) {
        if lows.isEmpty {
            lows = [key]
            counts = [0]
        }
        counts[block(holding: key)] += 1
        total += 1
    }

    /// Counts a key removed from the library. Its block may stay empty until ``compact()``.
    public mutating func remove(_ key: Double) {
        counts[block(holding: key)] -= 1
        total -= 1
    }

    /// Drops empty blocks and merges each block holding fewer than ``minimum`` keys into the
    /// one before it (the first into the one after it), which may leave a block to split.
    public mutating func compact() {
        var block = 0
        while block < lows.count {
            if counts[block] == 0 {
                lows.remove(at: block)
                counts.remove(at: block)
            } else if counts[block] < Self.minimum, lows.count > 1 {
                // The first block's range reaches down to every key, so the second joins it.
                let (kept, merged) = block == 0 ? (0, 1) : (block - 1, block)
                counts[kept] += counts[merged]
                lows.remove(at: merged)
                counts.remove(at: merged)
                block = kept
            } else {
                block += 1
            }
        }
    }

    /// The first block holding more than ``maximum`` keys, if any.
    public var oversized: Int? { counts.firstIndex { $0 > Self.maximum } }

    /// Splits block `block`, whose keys in order are `keys`, into blocks of about ``target``
    /// keys; the first keeps its low key.
    public mutating func split(_ block: Int, keys: [Double]) {
        precondition(keys.count == counts[block], "the keys of the block being split")
        let pieces = max(1, keys.count / Self.target)
        let starts = (0..<pieces).map { keys.count * $0 / pieces }
        let newLows = [lows[block]] + starts.dropFirst().map { keys[$0] }
        let newCounts = starts.indices.map { (($0 + 1 < pieces) ? starts[$0 + 1] : keys.count) - starts[$0] }
        lows.replaceSubrange(block...block, with: newLows)
        counts.replaceSubrange(block...block, with: newCounts)
    }

    /// The rows that turn the stored blocks `stored` into these: the low keys of blocks to
    /// delete, and the blocks to write (new ones, and ones whose count changed).
    public func changes(since stored: BlockIndex) -> (deleted: [Double], written: [(low: Double, count: Int)]) {
        let before = Dictionary(zip(stored.lows, stored.counts), uniquingKeysWith: { $1 })
        let after = Set(lows)
        let deleted = stored.lows.filter { !after.contains($0) }
        let written = zip(lows, counts).filter { before[$0.0] != $0.1 }.map { (low: $0.0, count: $0.1) }
        return (deleted, written)
    }
}
