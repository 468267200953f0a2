import AlbumKit

/// The first matches of a search (``LibraryTextSearch/firstMatches(holding:details:count:budget:where:)``):
/// the order's index is walked from the start and the words checked on the way, a batch of
/// rows at a time, so the first page of a word a tenth of the library holds reads a few hundred
/// rows, where every match took all of them (BENCHMARKS.md, the first broad search).
extension StoreReads {
    /// The fewest rows asked for at a time: the query's other terms may turn most away.
    static var firstBatch: Int { 256 }

    func firstMatches(holding words: [SearchWord], details: Set<AlbumField>, count: Int, budget: Int, where keep: @escaping @Sendable (Album) -> Bool)
        async throws -> FirstMatches
    {
        let wanted = details.filter { !$0.isCore }
        let sql = RowStoreSQL.firstAlbumsHolding(words, details: !wanted.isEmpty, throughKeys: store.driver.searchesThroughKeys)
        let patterns = words.map(RowStoreSQL.pattern)
        return try await store.withReader(transaction: true) { [rows = store.rows] reader in
            let (blocks, generation) = try await store.blocks(reader)
            var places: [Double] = []
            var after = -Double.greatestFiniteMagnitude
            var read = 0
            while true {
                let asked = Swift.min(budget - read, Swift.max(count - places.count, Self.firstBatch))
                let found = try await reader.connection.query(sql, [.real(after)] + patterns + [.integer(Int64(asked))]) {
                    try rows.album($0, details: wanted)
                }
                read += found.count
                places += found.lazy.filter { keep($0.album) }.map(\.key)
                guard let last = found.last?.key, found.count == asked else { return FirstMatches(generation: generation, places: places, stop: nil) }
                after = last
                if places.count >= count || read >= budget {
                    let position = try await reader.positions(of: [last], blocks)[0]
                    return FirstMatches(generation: generation, places: places, stop: (last, position, blocks.total))
                }
            }
        }
    }
}
