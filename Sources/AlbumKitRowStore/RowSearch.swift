import AlbumKit

/// A row store's ``LibraryTextSearch``: the database finds the albums whose search columns
/// hold a query's words, and positions come from the ``BlockIndex`` — a count within a block
/// for an album alone in its block, the block's keys read once for several.
extension StoreReads: LibraryTextSearch {
    func places(holding words: [SearchWord]) async throws -> (generation: Int64, places: [Double]) {
        try await store.withReader(transaction: true) { reader in
            let generation = try await reader.header().generation
            let keys = try await reader.connection.query(RowStoreSQL.placesHolding(words), words.map(RowStoreSQL.pattern)) { try $0.real(0) }
            return (generation, keys)
        }
    }

    func matches(holding words: [SearchWord], details: Set<AlbumField>, albums: Bool, where test: SearchedTest)
        async throws -> (generation: Int64, places: [Double], albums: [Album])
    {
        let wanted = details.filter { !$0.isCore }
        var folded = false
        if case .folded = test { folded = true }
        let sql = RowStoreSQL.albumsHolding(words, details: !wanted.isEmpty, folded: folded, throughKeys: store.driver.searchesThroughKeys)
        return try await store.withReader(transaction: true) { [rows = store.rows] reader in
            let generation = try await reader.header().generation
            // Rows come in the engine's order (sorting them by key would spill to disk in
            // PostgreSQL for a common word); only those kept are held, then put in order
            // unless they came in order (SQLite's search index walks it).
            var kept = try await reader.connection.query(sql, words.map(RowStoreSQL.pattern)) { row -> StoredAlbum? in
                switch test {
                case .album(let keep):
                    let stored = try rows.album(row, details: wanted)
                    return keep(stored.album) ? stored : nil
                case .folded(let keep):
                    let text = FoldedAlbum(core: try row.text(RowStoreSQL.foldedColumn), text: try row.text(RowStoreSQL.foldedColumn + 1))
                    return keep(text) ? try rows.album(row, details: wanted) : nil
                }
            }.compactMap { $0 }
            if zip(kept, kept.dropFirst()).contains(where: { $0.key >= $1.key }) { kept.sort { $0.key < $1.key } }
            return (generation, kept.map(\.key), albums ? kept.map(\.album) : [])
        }
    }

    func albums(at places: [Double], details: Set<AlbumField>, current: AlbumID?, generation: Int64) async throws -> PlacedAlbums {
        let found = try await store.withReader(transaction: true) { reader -> PlacedAlbums? in
            let (blocks, now) = try await store.blocks(reader)
            guard now == generation else { return nil }
            let albums = try await reader.albums(withKeys: places, details: details)
            guard albums.count == places.count else { return nil }
            var currentKey: Double?
            if let current { currentKey = try await reader.connection.first(RowStoreSQL.keyOfID, [.text(current.rawValue)]) { try $0.real(0) } }
            // The current album's position is counted with the page's: one statement for all.
            var keys = places
            if let currentKey, !places.contains(currentKey) { keys = (places + [currentKey]).sorted() }
            let position = Dictionary(uniqueKeysWithValues: zip(keys, try await reader.positions(of: keys, blocks)))
            return PlacedAlbums(
                albums: albums.map { (position: position[$0.key]!, album: $0.album) },
                current: currentKey.map { (place: $0, position: position[$0]!) })
        }
        guard let found else { throw LibraryMovedOn() }
        return found
    }

    func positions(of places: [Double], generation: Int64) async throws -> [Int] {
        let found = try await store.withReader(transaction: true) { reader -> [Int]? in
            let (blocks, current) = try await store.blocks(reader)
            guard current == generation else { return nil }
            return try await reader.positions(of: places, blocks)
        }
        guard let found else { throw LibraryMovedOn() }
        return found
    }
}

extension RowReader {
    /// Rows per statement that reads albums by their keys.
    static var keysPerRead: Int { 500 }

    /// The albums whose keys are `keys` (increasing), in order, with the details `details`
    /// names (the column is not read when it names none beyond the core six).
    func albums(withKeys keys: [Double], details: Set<AlbumField>) async throws -> [StoredAlbum] {
        let wanted = details.filter { !$0.isCore }
        var albums: [StoredAlbum] = []
        albums.reserveCapacity(keys.count)
        var start = 0
        while start < keys.count {
            let batch = keys[start..<min(keys.count, start + Self.keysPerRead)]
            albums += try await connection.query(
                RowStoreSQL.albumsWithKeys(batch.count, details: !wanted.isEmpty), batch.map { .real($0) }
            ) { [rows] in try rows.album($0, details: wanted) }
            start += batch.count
        }
        return albums
    }

    /// The 0-based positions of the albums whose keys are `keys` (increasing, each stored):
    /// each its block's start plus the keys before it in its block. Counting those costs about
    /// half a block's index entries a key, reading every key once the library's size; the
    /// cheaper is taken, and either is one statement (counts go `keysPerRead` keys a
    /// statement), not one per block.
    func positions(of keys: [Double], _ blocks: BlockIndex) async throws -> [Int] {
        if keys.count * BlockIndex.target / 2 > blocks.total {
            let every = try await connection.everyKey()
            return keys.map { key in Self.index(of: key, in: every) }
        }
        var positions: [Int] = []
        positions.reserveCapacity(keys.count)
        var start = 0
        var blockStart = 0, counted = 0  // the position where block `counted` starts
        while start < keys.count {
            let batch = keys[start..<min(keys.count, start + Self.keysPerRead)]
            let lows = batch.map { blocks.lowerBound(of: blocks.block(holding: $0)) }
            let before = Dictionary(
                uniqueKeysWithValues: try await connection.query(
                    RowStoreSQL.countsBetween(batch.count), zip(lows, batch).flatMap { [SQLValue.real($0), .real($1)] }
                ) { (try $0.real(0), Int(try $0.integer(1))) })
            for key in batch {
                let block = blocks.block(holding: key)
                while counted < block {
                    blockStart += blocks.counts[counted]
                    counted += 1
                }
                positions.append(blockStart + (before[key] ?? 0))
            }
            start += batch.count
        }
        return positions
    }

    /// How many of `sorted` (increasing) are below `key`.
    private static func index(of key: Double, in sorted: [Double]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
