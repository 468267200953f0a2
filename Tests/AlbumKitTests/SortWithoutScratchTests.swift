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
        let keys = (0..<300).map { CoverKey(bytes: Data("\($0)".utf8), fileExtension: "png") }.sorted()
        #expect(keys.allSatisfy { keys.sortedContains($0) })
        #expect(!keys.sortedContains(CoverKey(bytes: Data("0".utf8), fileExtension: "jpg")))
    }
}
