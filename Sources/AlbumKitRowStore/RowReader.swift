import AlbumKit
import Foundation

/// Reads a library's rows on one connection, inside the caller's transaction: the memento,
/// the history steps, and albums by position or id through the ``BlockIndex`` — each an
/// indexed query that touches what it returns and at most one block besides.
struct RowReader<Connection: RowConnection>: Sendable {
    let connection: Connection
    let rows: AlbumRowReader

    /// The generation counter (bumped by every save) and the album count.
    func header() async throws -> (generation: Int64, count: Int) {
        guard let header = try await connection.first(RowStoreSQL.header, [], { (try $0.integer(0), Int(try $0.integer(1))) }) else {
            throw rows.damaged("table albumkit_state has no row")
        }
        return header
    }

    /// The memento.
    func state() async throws -> LibraryState {
        guard let data = try await connection.first(RowStoreSQL.state, [], { try $0.bytes(0) }) else {
            throw rows.damaged("table albumkit_state has no row")
        }
        do {
            return try LibraryState(json: data)
        } catch {
            throw rows.damaged("table albumkit_state holds an unreadable memento (\(error))")
        }
    }

    /// The memento with every lookup answer in it (a whole read of the library).
    func stateWithAnswers() async throws -> LibraryState {
        var state = try await state()
        state.lookups = try await lookupAnswers(try await connection.query(RowStoreSQL.everyLookup, []) { (try $0.text(0), try $0.bytes(1)) })
        return state
    }

    /// The lookup answers stored under `keys`.
    func lookupAnswers(_ keys: [String]) async throws -> [String: LookupAnswer] {
        let unique = Array(Set(keys))
        var rows: [(String, Data)] = []
        for start in stride(from: 0, to: unique.count, by: RowStoreSQL.lookupBatch) {
            let batch = unique[start..<min(start + RowStoreSQL.lookupBatch, unique.count)]
            rows += try await connection.query(RowStoreSQL.lookups(count: batch.count), batch.map { .text($0) }) { (try $0.text(0), try $0.bytes(1)) }
        }
        return try lookupAnswers(rows)
    }

    /// The answers of rows of `albumkit_lookups` (key, answer).
    private func lookupAnswers(_ rows: [(String, Data)]) throws -> [String: LookupAnswer] {
        var answers: [String: LookupAnswer] = [:]
        answers.reserveCapacity(rows.count)
        for (key, data) in rows {
            do {
                answers[key] = try LookupAnswer(json: data)
            } catch {
                throw self.rows.damaged("table albumkit_lookups, row '\(key)': unreadable (\(error))")
            }
        }
        return answers
    }

    /// The block table.
    func blocks() async throws -> BlockIndex {
        let stored = try await connection.query(RowStoreSQL.blocks, []) { (try $0.real(0), Int(try $0.integer(1))) }
        return BlockIndex(lows: stored.map(\.0), counts: stored.map(\.1))
    }

    /// The albums (with their keys) at `positions`, clamped to the library.
    func albums(at positions: Range<Int>, _ blocks: BlockIndex) async throws -> [StoredAlbum] {
        try await fromBlock(positions, blocks, RowStoreSQL.albumsFrom) { [rows] in try rows.album($0) }
    }

    /// The ids and keys at `positions`, clamped to the library.
    func keys(at positions: Range<Int>, _ blocks: BlockIndex) async throws -> [StoredKey] {
        try await fromBlock(positions, blocks, RowStoreSQL.keysFrom) { StoredKey(id: AlbumID(try $0.text(0)), key: try $0.real(1)) }
    }

    /// The position of the album with `id`, if the library holds it: its block's start plus
    /// the keys before it in its block.
    func index(of id: AlbumID, _ blocks: BlockIndex) async throws -> Int? {
        guard let key = try await connection.first(RowStoreSQL.keyOfID, [.text(id.rawValue)], { try $0.real(0) }) else { return nil }
        let block = blocks.block(holding: key)
        let before = try await connection.first(RowStoreSQL.countBetween, [.real(blocks.lowerBound(of: block)), .real(key)]) {
            Int(try $0.integer(0))
        }
        return blocks.start(of: block) + (before ?? 0)
    }

    /// Whether an album has `id`: one statement, no position worked out.
    func contains(_ id: AlbumID) async throws -> Bool {
        try await connection.first(RowStoreSQL.keyOfID, [.text(id.rawValue)], { try $0.real(0) }) != nil
    }

    /// The position of the first album in library order whose duplicate key is `key`.
    func firstIndex(ofDuplicateKey key: String, _ blocks: BlockIndex) async throws -> Int? {
        let arguments: [SQLValue] = [.text(RowStoreSQL.duplicateDigest(key)), .text(key)]
        guard let id = try await connection.first(RowStoreSQL.firstDuplicate, arguments, { try $0.text(0) }) else { return nil }
        return try await index(of: AlbumID(id), blocks)
    }

    /// The keys block `block` holds, in order.
    func keys(inBlock block: Int, _ blocks: BlockIndex) async throws -> [Double] {
        try await connection.query(RowStoreSQL.keysBetween, [.real(blocks.lowerBound(of: block)), .real(blocks.upperBound(of: block))]) {
            try $0.real(0)
        }
    }

    /// Every album, in order.
    func everyAlbum() async throws -> [Album] {
        try await connection.query(RowStoreSQL.everyAlbum, []) { [rows] in try rows.album($0).album }
    }

    /// Every album in library order, handed to `run` at most `size` at a time (no run for an
    /// empty library). Each album's details hold the fields `details` names (the column is not
    /// read when it names none beyond the core six).
    func everyAlbum(inRunsOf size: Int, details: Set<AlbumField>, _ run: @escaping @Sendable ([Album]) -> Void) async throws {
        let wanted = details.filter { !$0.isCore }
        let query = wanted.isEmpty ? RowStoreSQL.coreAlbumsAfter : RowStoreSQL.albumsAfter
        try await runs(of: size, query, { [rows] row in
            let stored = try rows.album(row, details: wanted)
            return (stored.album, stored.key)
        }, run)
    }

    /// Every album with every field as ``everyAlbum(inRunsOf:details:_:)`` hands them over,
    /// their details as text where it is in the writer's form (``AlbumRowReader/albumWithText(_:)``).
    func everyAlbumWithText(inRunsOf size: Int, _ run: @escaping @Sendable ([AlbumWithText]) -> Void) async throws {
        try await runs(of: size, RowStoreSQL.albumsAfter, { [rows] row in (try rows.albumWithText(row), try row.real(6)) }, run)
    }

    /// The rows `query` (``RowStoreSQL/albumsAfter``'s arguments) reads, each element read with
    /// its key by `read`, handed to `run` in runs of at most `size`.
    ///
    /// A read that is not bounded (``ReadingBound/holdsBack``: a listing, whose consumer holds
    /// every album anyway) is one statement, each run handed on as its last row comes: a
    /// statement a run would leave the engine idle between runs, waiting for a task thread to
    /// ask for the next (BENCHMARKS.md, *Issue 34's rows on a quiet machine (3ad2a03)*).
    ///
    /// A bounded read is a statement a run, each waiting until the consumer has room for its
    /// run (``ReadingBound/room()``): a store whose rows come on the tasks' shared threads is so
    /// held back without blocking one. A run starts after the last key of the one before, so
    /// rows sharing a key across two runs (which ``SortKeys`` never writes, but the index does
    /// not forbid) would be skipped: after each full run the rows holding its last key are
    /// counted (one indexed count, where a count of the table reads all of a PostgreSQL table
    /// not yet vacuumed), and more than the run holds is a damaged library.
    private func runs<Element: Sendable>(
        of size: Int, _ query: String, _ read: @escaping @Sendable (any SQLRow) throws -> (Element, Double),
        _ run: @escaping @Sendable ([Element]) -> Void
    ) async throws {
        let size = max(size, 1)
        var after = -Double.infinity
        guard ReadingBound.holdsBack else {
            let gathered = GatheredRuns(size: size, run)
            _ = try await connection.query(query, [.real(after), .integer(Int64.max)]) { row in gathered.add(try read(row).0) }
            return gathered.flush()
        }
        while true {
            await ReadingBound.room()
            try Task.checkCancellation()
            let page = try await connection.query(query, [.real(after), .integer(Int64(size))], read)
            guard let last = page.last else { return }
            run(page.map(\.0))
            after = last.1
            if page.count < size { return }
            let read = page.reversed().prefix { $0.1 == last.1 }.count
            let stored = try await connection.first(RowStoreSQL.countOfKey, [.real(last.1)]) { Int(try $0.integer(0)) } ?? 0
            guard stored == read else {
                throw rows.damaged("\(stored) albums share a sort key (\(last.1)) where a run of \(size) ends: reading on would skip \(stored - read)")
            }
        }
    }

    /// The stored steps `ids` names (those not stored are left out).
    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] {
        var steps: [Int64: HistoryStep] = [:]
        for id in ids {
            guard let data = try await connection.first(RowStoreSQL.step, [.integer(id)], { try $0.bytes(0) }) else { continue }
            do {
                steps[id] = try JSONDecoder().decode(HistoryStep.self, from: data)
            } catch {
                throw rows.damaged("table albumkit_history, row \(id): unreadable (\(error))")
            }
        }
        return steps
    }

    /// Rows at `positions` read by `query` (`sort_key >= ? … LIMIT ? OFFSET ?`), counted from
    /// the low key of the block holding the first position.
    private func fromBlock<Row: Sendable>(
        _ positions: Range<Int>, _ blocks: BlockIndex, _ query: String, _ read: @escaping @Sendable (any SQLRow) throws -> Row
    ) async throws -> [Row] {
        let wanted = positions.clamped(to: 0..<blocks.total)
        guard !wanted.isEmpty else { return [] }
        let (block, offset) = blocks.locate(wanted.lowerBound)
        let found = try await connection.query(
            query, [.real(blocks.lowerBound(of: block)), .integer(Int64(wanted.count)), .integer(Int64(offset))], read)
        guard found.count == wanted.count else {
            throw rows.damaged("table albumkit_blocks counts \(blocks.total) albums but positions \(wanted.lowerBound + 1)–\(wanted.upperBound) hold \(found.count)")
        }
        return found
    }
}

/// Rows gathered one by one into runs of a given size, each handed on when full. A query
/// reads its rows one after another, never two at once (``RowConnection/query(_:_:_:)``), so
/// the run in the making needs no lock.
final class GatheredRuns<Element>: @unchecked Sendable {
    private let size: Int
    private let run: @Sendable ([Element]) -> Void
    private var elements: [Element] = []

    init(size: Int, _ run: @escaping @Sendable ([Element]) -> Void) {
        self.size = max(size, 1)
        self.run = run
        elements.reserveCapacity(self.size)
    }

    /// Adds `element`, handing the run on when it is full.
    func add(_ element: Element) {
        elements.append(element)
        if elements.count == size { flush() }
    }

    /// Hands on what is gathered, if anything.
    func flush() {
        guard !elements.isEmpty else { return }
        run(elements)
        elements = []
        elements.reserveCapacity(size)
    }
}
