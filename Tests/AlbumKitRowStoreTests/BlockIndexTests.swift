import Testing

@testable import AlbumKitRowStore

/// The block table that turns positions into keys and back, against a sorted array.
@Suite struct BlockIndexTests {
    /// Checks every promise against `keys`, the keys the blocks count, in order.
    private func expectAgrees(_ blocks: BlockIndex, with keys: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(blocks.total == keys.count, sourceLocation: sourceLocation)
        #expect(zip(blocks.lows, blocks.lows.dropFirst()).allSatisfy { $0 < $1 }, "low keys increase", sourceLocation: sourceLocation)
        for (position, key) in keys.enumerated() {
            let (block, offset) = blocks.locate(position)
            #expect(blocks.block(holding: key) == block, "position \(position)", sourceLocation: sourceLocation)
            #expect(blocks.start(of: block) + offset == position, sourceLocation: sourceLocation)
            #expect(key >= blocks.lowerBound(of: block) && key < blocks.upperBound(of: block), sourceLocation: sourceLocation)
        }
    }

    @Test func blocksLaidOverKeysHoldTheTargetEach() {
        let keys = (0..<1300).map { Double($0) * 3 }
        let blocks = BlockIndex(laidOver: keys)
        #expect(blocks.counts == [512, 512, 276])
        #expect(blocks.lows == [0, 512 * 3, 1024 * 3])
        expectAgrees(blocks, with: keys)
        #expect(BlockIndex(laidOver: []).lows.isEmpty)
    }

    @Test func keysBelowTheFirstBlockBelongToIt() {
        var blocks = BlockIndex(laidOver: [10, 20, 30])
        blocks.add(-5)
        #expect(blocks.counts == [4])
        #expect(blocks.block(holding: -1e300) == 0)
        expectAgrees(blocks, with: [-5, 10, 20, 30])
    }

    @Test func randomAddsAndRemovesStayCountedAfterCompactingAndSplitting() {
        var generator = SystemRandomNumberGenerator()
        var keys: [Double] = (0..<3000).map { Double($0) }
        var blocks = BlockIndex(laidOver: keys)
        for round in 0..<40 {
            for _ in 0..<200 {
                if Bool.random(using: &generator) || keys.isEmpty {
                    let key = Double.random(in: -100...4000, using: &generator)
                    guard !keys.contains(key) else { continue }
                    keys.insert(key, at: keys.firstIndex { $0 > key } ?? keys.count)
                    blocks.add(key)
                } else {
                    // Removes in runs, as an undo of an import does: whole blocks empty out.
                    let start = Int.random(in: 0..<keys.count, using: &generator)
                    let run = keys[start..<min(keys.count, start + Int.random(in: 1...(round % 5 == 0 ? 900 : 3), using: &generator))]
                    for key in run { blocks.remove(key) }
                    keys.removeSubrange(run.indices)
                }
            }
            blocks.compact()
            while let block = blocks.oversized {
                blocks.split(block, keys: keys.filter { $0 >= blocks.lowerBound(of: block) && $0 < blocks.upperBound(of: block) })
            }
            expectAgrees(blocks, with: keys)
            #expect(blocks.counts.allSatisfy { $0 >= BlockIndex.minimum || blocks.counts.count == 1 })
            #expect(blocks.counts.allSatisfy { $0 <= BlockIndex.maximum })
        }
    }

    @Test func changesNameOnlyTheBlocksThatDiffer() {
        let stored = BlockIndex(lows: [0, 100, 200], counts: [300, 300, 300])
        var blocks = stored
        blocks.remove(150)
        for key in stride(from: 201.0, to: 1000, by: 1) { blocks.add(key) }
        blocks.split(2, keys: [200] + (1...299).map { 200 + Double($0) / 1000 } + Array(stride(from: 201.0, to: 1000, by: 1)))
        let (deleted, written) = blocks.changes(since: stored)
        #expect(deleted.isEmpty)
        #expect(written.map(\.low).first == 100)
        #expect(!written.contains { $0.low == 0 })
        #expect(written.count == blocks.lows.count - 1)
        let emptied = BlockIndex(lows: [0, 100], counts: [1, 1])
        var compacted = emptied
        compacted.remove(150)
        compacted.compact()
        #expect(compacted.changes(since: emptied).deleted == [100])
    }
}
