extension RandomAccessCollection where Element: Comparable {
    /// The index of an element equal to `element` in the collection, which is sorted, found by
    /// halving; nil when it holds none.
    package func sortedIndex(of element: Element) -> Index? {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = index(low, offsetBy: distance(from: low, to: high) / 2)
            if self[middle] < element { low = index(after: middle) } else { high = middle }
        }
        return low < endIndex && self[low] == element ? low : nil
    }

    /// Whether the collection, which is sorted, holds `element` (found by halving).
    package func sortedContains(_ element: Element) -> Bool { sortedIndex(of: element) != nil }
}

extension Array where Element: Comparable {
    /// The elements of this array and of `later` — both sorted, each holding an element once —
    /// sorted, each once; of two that are equal (the same by `==`, not always in every field),
    /// `later`'s. Merged in one pass, not through a set.
    package func mergingSorted(_ later: [Element]) -> [Element] {
        var merged: [Element] = []
        merged.reserveCapacity(count + later.count)
        var mine = startIndex
        for element in later {
            while mine < endIndex, self[mine] < element {
                merged.append(self[mine])
                mine += 1
            }
            if mine < endIndex, self[mine] == element { mine += 1 }
            merged.append(element)
        }
        merged.append(contentsOf: self[mine...])
        return merged
    }
}
