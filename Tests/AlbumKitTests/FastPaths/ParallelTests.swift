import AlbumKit
import Testing

/// Work split over the cores comes back whole and in order.
@Suite struct ParallelTests {
    @Test(arguments: [0, 1, 9_999, 10_001])
    func everyIndexOnceInOrder(count: Int) {
        #expect(Parallel.joined(count) { Array($0) } == Array(0..<count))
        #expect(Parallel.joined(count, serialBelow: 1) { Array($0) } == Array(0..<count))
    }
}
