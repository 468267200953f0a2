import AlbumKit
import Synchronization

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
        let read = Mutex<[(place: Double, album: Album)]>([])
        let found = try await scan(words, details: details, where: test, inRunsOf: RowReader<Driver.Connection>.keysPerRead, positioned: false) { run in
            read.withLock { $0 += run }
        }
        var kept = read.withLock { $0 }
        if zip(kept, kept.dropFirst()).contains(where: { $0.place >= $1.place }) { kept.sort { $0.place < $1.place } }
        return (found.generation, found.places, albums ? kept.map(\.album) : [])
    }

    func positionedMatches(
        holding words: [SearchWord], details: Set<AlbumField>, where test: SearchedTest, inRunsOf size: Int,
        _ run: @escaping @Sendable ([(place: Double, album: Album)]) -> Void
    ) async throws -> (generation: Int64, positions: [Int]) {
        let found = try await scan(words, details: details, where: test, inRunsOf: size, positioned: true, run)
        return (found.generation, found.positions)
    }

    /// Reads the albums holding `words` that `test` keeps, handing them to `run` as they come
    /// (in the engine's order: sorting them by key would spill to disk in PostgreSQL for a
    /// common word); returns their places in library order and, when `positioned`, their
    /// 0-based positions (else none). Once the albums kept are many enough that placing them
    /// reads every key (``RowReader/readsEveryKey(placing:_:)``), the keys are read on a
    /// connection of their own while this one reads on, and must be those of the same generation.
    private func scan(
        _ words: [SearchWord], details: Set<AlbumField>, where test: SearchedTest, inRunsOf size: Int, positioned: Bool,
        _ run: @escaping @Sendable ([(place: Double, album: Album)]) -> Void
    ) async throws -> (generation: Int64, places: [Double], positions: [Int]) {
        let wanted = details.filter { !$0.isCore }
        var folded = false
        if case .folded = test { folded = true }
        let sql = RowStoreSQL.albumsHolding(words, details: !wanted.isEmpty, folded: folded, throughKeys: store.driver.searchesThroughKeys)
        return try await store.withReader(transaction: true) { [store, rows = store.rows] reader in
            let (blocks, generation) = try await store.blocks(reader)
            let gathered = GatheredRuns(size: size, run)
            let read = Mutex<(places: [Double], everyKey: Task<(generation: Int64, keys: [Double]), any Error>?)>(([], nil))
            do {
                _ = try await reader.connection.query(sql, words.map(RowStoreSQL.pattern)) { row in
                    let stored: StoredAlbum
                    switch test {
                    case .album(let keep):
                        stored = try rows.album(row, details: wanted)
                        guard keep(stored.album) else { return }
                    case .folded(let keep):
                        guard keep(FoldedAlbum(core: try row.text(RowStoreSQL.foldedColumn), text: try row.text(RowStoreSQL.foldedColumn + 1))) else { return }
                        stored = try rows.album(row, details: wanted)
                    }
                    gathered.add((stored.key, stored.album))
                    read.withLock { read in
                        read.places.append(stored.key)
                        if positioned, read.everyKey == nil, RowReader<Driver.Connection>.readsEveryKey(placing: read.places.count, blocks) {
                            read.everyKey = Task { try await store.withReader(transaction: true) { (try await $0.header().generation, try await $0.connection.everyKey()) } }
                        }
                    }
                }
                gathered.flush()
            } catch {
                read.withLock { $0.everyKey?.cancel() }
                throw error
            }
            var (places, everyKey) = read.withLock { $0 }
            if zip(places, places.dropFirst()).contains(where: { $0 >= $1 }) { places.sort() }
            guard positioned else { return (generation, places, []) }
            guard let everyKey else { return (generation, places, try await reader.positions(of: places, blocks)) }
            let every = try await everyKey.value
            guard every.generation == generation else { throw LibraryMovedOn() }
            return (generation, places, RowReader<Driver.Connection>.positions(of: places, in: every.keys))
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
        if Self.readsEveryKey(placing: keys.count, blocks) { return Self.positions(of: keys, in: try await connection.everyKey()) }
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

    /// Whether ``positions(of:_:)`` places `count` keys by reading every key (else by
    /// counting within their blocks): the cheaper of the two.
    static func readsEveryKey(placing count: Int, _ blocks: BlockIndex) -> Bool {
        count * BlockIndex.target / 2 > blocks.total
    }

    /// The 0-based positions of `keys` (each one of `every`, the library's keys in order).
    static func positions(of keys: [Double], in every: [Double]) -> [Int] {
        keys.map { key in index(of: key, in: every) }
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
