/// Places (below `UInt32.max`) by text fingerprint, in one array of slots filled up to 7/8
/// (open addressing, the next slot on a collision; nothing is ever removed). Work that remembers
/// every album of a large import by a fingerprint — `dedupe`, the commit — keeps its map here: a
/// `Dictionary` fills at most 3/4 of its buckets and doubles past that, so it often holds
/// twice the slots this table does (BENCHMARKS.md).
package struct FingerprintTable {
    private var keys: [TextFingerprint]
    /// Each slot's place plus one; 0 for an empty slot.
    private var values: [UInt32]
    /// How many fingerprints the table holds.
    package private(set) var count = 0

    /// A table with room for `capacity` fingerprints before it grows.
    package init(minimumCapacity capacity: Int = 0) {
        var slots = 16
        while slots * 7 / 8 < capacity { slots *= 2 }
        keys = Array(repeating: TextFingerprint(""), count: slots)
        values = Array(repeating: 0, count: slots)
    }

    /// The place held under `key`; setting holds `key` at a place (its first, or a new one).
    package subscript(key: TextFingerprint) -> UInt32? {
        get {
            let slot = slot(of: key)
            return values[slot] == 0 ? nil : values[slot] - 1
        }
        set {
            guard let newValue else { preconditionFailure("a fingerprint table forgets nothing") }
            precondition(newValue < UInt32.max, "a place past the table's range")
            var slot = slot(of: key)
            if values[slot] == 0 {
                if (count + 1) > values.count * 7 / 8 {
                    grow()
                    slot = self.slot(of: key)
                }
                keys[slot] = key
                count += 1
            }
            values[slot] = newValue + 1
        }
    }

    /// Holds `key` (at place 0) unless it is held; returns whether it was new.
    package mutating func insert(_ key: TextFingerprint) -> Bool {
        guard self[key] == nil else { return false }
        self[key] = 0
        return true
    }

    /// The slot that holds `key`, or the empty one where it would go.
    private func slot(of key: TextFingerprint) -> Int {
        let mask = values.count - 1
        var slot = key.slotBits & mask
        while values[slot] != 0 && keys[slot] != key { slot = (slot + 1) & mask }
        return slot
    }

    /// Doubles the slots, moving every fingerprint to its place in the new ones.
    private mutating func grow() {
        var larger = FingerprintTable(minimumCapacity: values.count)
        for slot in values.indices where values[slot] != 0 { larger[keys[slot]] = values[slot] - 1 }
        self = larger
    }
}
