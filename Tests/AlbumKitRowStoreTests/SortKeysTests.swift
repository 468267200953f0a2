import Testing

@testable import AlbumKitRowStore

/// Where new rows' sort keys go, and how a narrow gap is widened.
@Suite struct SortKeysTests {
    @Test func newRowsGoEvenlyBetweenTheirNeighbours() throws {
        #expect(SortKeys.between(nil, nil, count: 2) == [1024, 2048])
        #expect(SortKeys.between(1024, nil, count: 2) == [2048, 3072])
        #expect(SortKeys.between(nil, 1024, count: 2) == [-1024, 0])
        #expect(SortKeys.between(0, 30, count: 2) == [10, 20])
        #expect(SortKeys.between(0, 2.5, count: 2) == nil, "keys closer than the minimum gap")
    }

    @Test func aRespreadGivesTheWindowAndTheNewRowsIncreasingKeys() throws {
        // Positions 3..<7 of 10 rows, two new rows before position 5, between keys 30 and 31.
        let (window, new) = try #require(SortKeys.respread(window: 3..<7, total: 10, gap: 5, count: 2, below: 30, above: 37))
        let keys = window[..<2] + new + window[2...]
        #expect(keys == [31, 32, 33, 34, 35, 36])
        #expect(SortKeys.respread(window: 3..<7, total: 10, gap: 5, count: 2, below: 30, above: 32) == nil)
        let whole = try #require(SortKeys.respread(window: 0..<2, total: 2, gap: 2, count: 1, below: nil, above: nil))
        #expect(whole.window == [1024, 2048] && whole.new == [3072])
    }

    @Test func windowsDoubleUntilTheyHoldTheWholeLibrary() {
        #expect(SortKeys.windows(around: 5, total: 10) == [4..<6, 3..<7, 1..<9, 0..<10])
        #expect(SortKeys.windows(around: 0, total: 3) == [0..<1, 0..<2, 0..<3])
        #expect(SortKeys.windows(around: 100_000, total: 100_000).count == 18)
    }
}
