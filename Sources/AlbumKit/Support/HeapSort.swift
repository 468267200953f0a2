extension Array where Element: Comparable {
    /// Sorts the array in place with no scratch storage (heapsort; not stable). The standard
    /// library's `sort()` borrows a buffer of half the elements, and an export sorts the cover
    /// keys it lists at the moment its memory peaks.
    package mutating func sortWithoutScratch() {
        withUnsafeMutableBufferPointer { elements in
            /// Moves the element at `root` down until neither child below `end` is larger.
            func siftDown(from root: Int, to end: Int) {
                var root = root
                while 2 * root + 1 < end {
                    var larger = 2 * root + 1
                    if larger + 1 < end, elements[larger] < elements[larger + 1] { larger += 1 }
                    guard elements[root] < elements[larger] else { return }
                    elements.swapAt(root, larger)
                    root = larger
                }
            }
            guard elements.count > 1 else { return }
            for root in stride(from: elements.count / 2 - 1, through: 0, by: -1) { siftDown(from: root, to: elements.count) }
            for end in stride(from: elements.count - 1, to: 0, by: -1) {
                elements.swapAt(0, end)
                siftDown(from: 0, to: end)
            }
        }
    }
}
