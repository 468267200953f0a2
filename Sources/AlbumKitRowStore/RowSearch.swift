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

    func matches(holding words: [SearchWord], details: Set<AlbumField>, albums: Bool, where keep: @escaping @Sendable (Album) -> Bool)
        async throws -> (generation: Int64, places: [Double], albums: [Album])
    {
        let wanted = details.filter { !$0.isCore }
        let sql = RowStoreSQL.albumsHolding(words, details: !wanted.isEmpty, throughKeys: store.driver.searchesThroughKeys)
        return try await store.withReader(transaction: true) { [rows = store.rows] reader in
            let generation = try await reader.header().generation
            // Rows come in the engine's order (sorting them by key would spill to disk in
            // PostgreSQL for a common word); only those kept are held, then put in order.
            let kept = try await reader.connection.query(sql, words.map(RowStoreSQL.pattern)) { row -> StoredAlbum? in
                let stored = try rows.album(row, details: wanted)
                return keep(stored.album) ? stored : nil
            }.compactMap { $0 }.sorted { $0.key < $1.key }
            return (generation, kept.map(\.key), albums ? kept.map(\.album) : [])
        }
    }

    func albums(at places: [Double], details: Set<AlbumField>, generation: Int64) async throws -> [Album] {
        let found = try await store.withReader(transaction: true) { reader -> [Album]? in
            guard try await reader.header().generation == generation else { return nil }
            return try await reader.albums(withKeys: places, details: details).map(\.album)
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

    func place(of id: AlbumID, generation: Int64) async throws -> (place: Double, position: Int)? {
        let found = try await store.withReader(transaction: true) { reader -> (place: Double, position: Int)?? in
            let (blocks, current) = try await store.blocks(reader)
            guard current == generation else { return nil }
            guard let key = try await reader.connection.first(RowStoreSQL.keyOfID, [.text(id.rawValue)], { try $0.real(0) }) else {
                return .some(nil)
            }
            return (key, try await reader.positions(of: [key], blocks)[0])
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

    /// The 0-based positions of the albums whose keys are `keys` (increasing, each stored).
    func positions(of keys: [Double], _ blocks: BlockIndex) async throws -> [Int] {
        var touched = 0, last = -1
        for key in keys where blocks.block(holding: key) != last {
            last = blocks.block(holding: key)
            touched += 1
        }
        // Keys in many blocks: every key read once, with one statement, costs less than a
        // statement per block.
        if touched > max(8, blocks.lows.count / 8) {
            let every = try await connection.query(RowStoreSQL.everyKey, []) { try $0.real(0) }
            return keys.map { key in Self.index(of: key, in: every) }
        }
        var positions: [Int] = []
        positions.reserveCapacity(keys.count)
        var start = 0
        var blockStart = 0, counted = 0  // the position where block `counted` starts
        while start < keys.count {
            let block = blocks.block(holding: keys[start])
            var end = start + 1
            while end < keys.count, blocks.block(holding: keys[end]) == block { end += 1 }
            while counted < block {
                blockStart += blocks.counts[counted]
                counted += 1
            }
            if end - start == 1 {
                let before = try await connection.first(RowStoreSQL.countBetween, [.real(blocks.lowerBound(of: block)), .real(keys[start])]) {
                    Int(try $0.integer(0))
                }
                positions.append(blockStart + (before ?? 0))
            } else {
                // Several in one block: its keys read once, each found among them.
                let inBlock = try await self.keys(inBlock: block, blocks)
                var index = 0
                for key in keys[start..<end] {
                    while index < inBlock.count, inBlock[index] < key { index += 1 }
                    positions.append(blockStart + index)
                }
            }
            start = end
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
