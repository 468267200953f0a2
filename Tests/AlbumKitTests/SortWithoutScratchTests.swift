@testable import AlbumKit
import Foundation
import Testing

/// The in-place sort of a cover folder's keys (``Swift/Array/sortWithoutScratch()``) orders as
/// the standard library's sort does.
@Suite struct SortWithoutScratchTests {
    @Test func sortingWithoutScratchSortsLikeTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 7, 100, 1_000, 4_097] {
            let values = (0..<count).map { _ in Int.random(in: 0..<(count / 3 + 1), using: &generator) }
            var sorted = values
            sorted.sortWithoutScratch()
            #expect(sorted == values.sorted(), "\(count) values")
        }
        var keys = (0..<500).map { CoverKey(bytes: Data("\($0 % 400)".utf8), fileExtension: $0 % 2 == 0 ? "png" : "jpg") }
        keys.sortWithoutScratch()
        #expect(keys == keys.sorted())
    }

    /// A sorted array finds by halving each element it holds, at either end and between
    /// repeats, and nothing it lacks.
    @Test func aSortedArrayFindsWhatItHolds() {
        for count in [0, 1, 2, 5, 1_000] {
            let values = (0..<count).map { $0 / 2 * 4 }
            #expect(values.allSatisfy { values.sortedContains($0) }, "\(count) values")
            #expect(!values.contains { values.sortedContains($0 + 1) } && !values.sortedContains(-1), "\(count) values")
        }
        let values = (0..<100).map { $0 * 2 }
        #expect(values[..<50].sortedIndex(of: 40) == 20 && values[..<50].sortedIndex(of: 120) == nil, "a sorted part finds within itself")
        let keys = (0..<300).map { CoverKey(bytes: Data("\($0)".utf8), fileExtension: "png") }.sorted()
        #expect(keys.allSatisfy { keys.sortedContains($0) })
        #expect(!keys.sortedContains(CoverKey(bytes: Data("0".utf8), fileExtension: "jpg")))
    }

    /// Two sorted arrays merge into one, sorted, each element once; of two equal, the later's.
    @Test func sortedArraysMergeEachElementOnce() {
        let earlier = [1, 3, 5, 7, 9, 11]
        let later = [0, 3, 4, 11, 12]
        #expect(earlier.mergingSorted(later) == [0, 1, 3, 4, 5, 7, 9, 11, 12])
        #expect(earlier.mergingSorted([]) == earlier && [Int]().mergingSorted(later) == later)
        let merged = [Tagged(1, "a"), Tagged(2, "a")].mergingSorted([Tagged(2, "b"), Tagged(3, "b")])
        #expect(merged.map(\.tag) == ["a", "b", "b"], "of two equal, the later's")
    }

    /// A number ordered and compared without its tag.
    private struct Tagged: Comparable {
        let value: Int
        let tag: String
        init(_ value: Int, _ tag: String) { (self.value, self.tag) = (value, tag) }
        static func < (left: Tagged, right: Tagged) -> Bool { left.value < right.value }
        static func == (left: Tagged, right: Tagged) -> Bool { left.value == right.value }
    }
}
