import AlbumKit
import Foundation

/// Stores a ``StoredChange`` as row operations on a connection that holds the writer lock:
/// the edits one run at a time (a run of inserts at following positions is one batch, a run
/// of removes one range delete), the history steps, the blocks, the lookup answers and the
/// memento. Reads the
/// neighbours each edit needs from the rows as they are inside the transaction, so edits
/// later in a change see the earlier ones.
struct RowEditor<Connection: RowConnection> {
    let reader: RowReader<Connection>
    /// How the engine says a multi-row insert (``RowStoreDriver/insertVerb``).
    let insertVerb: String
    /// The block rows as stored (to write only what changed).
    private var storedBlocks: BlockIndex
    /// The blocks as the rows are now.
    private(set) var blocks: BlockIndex

    init(reader: RowReader<Connection>, blocks: BlockIndex, insertVerb: String) {
        self.reader = reader
        self.insertVerb = insertVerb
        self.storedBlocks = blocks
        self.blocks = blocks
    }

    private var connection: Connection { reader.connection }

    /// Stores `change`; `snapshot` is the library after it (its albums are read only when
    /// the change replaces everything). Leaves the transaction open.
    mutating func save(_ change: StoredChange, snapshot: LibrarySnapshot, generation: Int64) async throws {
        try await saveSteps(change)
        switch change.albums {
        case .unchanged:
            break
        case .replaced:
            try await replace(with: snapshot.albums)
        case .edits(let edits):
            try await apply(edits)
        case .appending(let run, let edits):
            try await apply(edits)
            try await append(run)
        }
        try await settleBlocks()
        try await saveLookups(change, snapshot: snapshot)
        var state = snapshot.state
        state.lookups = [:]  // kept in their own table
        try await connection.execute(RowStoreSQL.saveState, [.integer(generation), .text(state.json), .integer(Int64(blocks.total))])
    }

    // MARK: - Lookup answers

    /// Writes the answers `change` gives; a change that replaces everything replaces them all
    /// with the snapshot's memento's.
    private func saveLookups(_ change: StoredChange, snapshot: LibrarySnapshot) async throws {
        var answers = change.lookups
        if change.albums == .replaced {
            try await connection.execute(RowStoreSQL.deleteLookups, [])
            answers.merge(snapshot.state.lookups) { given, _ in given }
        }
        let rows = answers.sorted { $0.key < $1.key }
        for start in stride(from: 0, to: rows.count, by: RowStoreSQL.lookupBatch) {
            let batch = rows[start..<min(start + RowStoreSQL.lookupBatch, rows.count)]
            try await connection.execute(RowStoreSQL.writeLookups(batch.count), batch.flatMap { [SQLValue.text($0.key), .text($0.value.json)] })
        }
    }

    // MARK: - History

    private func saveSteps(_ change: StoredChange) async throws {
        if change.albums == .replaced {
            try await connection.execute(RowStoreSQL.deleteSteps, [])
        } else {
            for id in change.droppedSteps { try await connection.execute(RowStoreSQL.deleteStep, [.integer(id)]) }
        }
        for (id, step) in change.addedSteps.sorted(by: { $0.key < $1.key }) {
            try await connection.execute(RowStoreSQL.writeStep, [.integer(id), .text(step.json)])
        }
    }

    // MARK: - Albums

    private mutating func replace(with albums: [Album]) async throws {
        try await connection.execute(RowStoreSQL.deleteAlbums, [])
        try await connection.execute(RowStoreSQL.deleteBlocks, [])
        storedBlocks = .empty
        let keys = SortKeys.laidOut(albums.count)
        var rows = zip(albums, keys).makeIterator()
        try await insert { rows.next() }
        blocks = BlockIndex(laidOver: keys)
    }

    private mutating func apply(_ edits: [LibraryEdit]) async throws {
        var next = 0
        while next < edits.count {
            switch edits[next] {
            case .update(_, let after):
                try await connection.execute(RowStoreSQL.updateAlbum, RowStoreSQL.updateArguments(after))
                next += 1
            case .move(let id, let from, let to):
                let moved = try await stored(at: from, expecting: id, edits[next])
                try await connection.execute(RowStoreSQL.deleteAlbum, [.text(id.rawValue)])
                blocks.remove(moved.key)
                var albums = CollectionOfOne(moved.album).makeIterator()
                try await insertRun(count: 1, at: index(to, fitting: edits[next])) { albums.next() }
                next += 1
            case .insert(_, let index):
                let run = Self.insertRun(in: edits, from: next)
                var albums = Self.insertedAlbums(edits[run]).makeIterator()
                try await insertRun(count: run.count, at: self.index(index, fitting: edits[next])) { albums.next() }
                next = run.upperBound
            case .remove:
                let (positions, albums) = Self.removeRun(in: edits, from: next)
                try await removeRun(albums, at: positions, edits[next])
                next += albums.count
            }
        }
    }

    /// The edits, from `start` on, that insert at following positions.
    private static func insertRun(in edits: [LibraryEdit], from start: Int) -> Range<Int> {
        guard case .insert(_, var expected) = edits[start] else { return start..<start }
        var end = start
        for edit in edits[start...] {
            guard case .insert(_, let index) = edit, index == expected else { break }
            end += 1
            expected += 1
        }
        return start..<end
    }

    /// The albums `inserts` (a run of inserts) insert, read as they are stored: an import's run
    /// is every album it brings, and a copy of them would be held beside the edits.
    private static func insertedAlbums(_ inserts: ArraySlice<LibraryEdit>) -> some Sequence<Album> {
        inserts.lazy.compactMap { edit in
            if case .insert(let album, _) = edit { album } else { nil }
        }
    }

    /// The removes from `start` on that take one range of positions: each one position
    /// lower than the last (as `remove 1 2 3` lists them) or each at the same position.
    /// Returns the range and its albums in library order.
    private static func removeRun(in edits: [LibraryEdit], from start: Int) -> (Range<Int>, [Album]) {
        guard case .remove(let first, let index) = edits[start] else { return (0..<0, []) }
        var albums = [first]
        var last = index
        var step: Int?  // set by the second remove: -1 or 0
        for edit in edits[(start + 1)...] {
            guard case .remove(let album, let position) = edit else { break }
            let delta = position - last
            guard delta == -1 || delta == 0, step == nil || step == delta else { break }
            step = delta
            albums.append(album)
            last = position
        }
        return step == 0 ? (index..<(index + albums.count), albums) : (last..<(index + 1), albums.reversed())
    }

    /// Appends the albums of `run` after the last row, reading them from its scratch file a
    /// batch at a time as they are inserted.
    private mutating func append(_ run: AlbumRun) async throws {
        guard run.count > 0 else { return }
        var albums = run.reader()
        try await insertRun(count: run.count, at: blocks.total) { try albums.next() }
    }

    /// `index`, a position `edit` inserts at, when it is one of the library's (or its end).
    private func index(_ index: Int, fitting edit: LibraryEdit) throws -> Int {
        guard (0...blocks.total).contains(index) else { throw misfit(edit) }
        return index
    }

    /// Inserts `count` albums, which `next` gives one at a time, before position `index`, giving
    /// them keys between their neighbours (spreading a window of neighbours out when the gap is
    /// too narrow).
    private mutating func insertRun(count: Int, at index: Int, albums next: () throws -> Album?) async throws {
        let neighbours = try await reader.keys(at: (index - 1)..<(index + 1), blocks)
        let low = index > 0 ? neighbours.first?.key : nil
        let high = index < blocks.total ? neighbours.last?.key : nil
        var keys = SortKeys.between(low, high, count: count)
        if keys == nil {
            keys = try await respread(around: index, making: count)
        }
        let placed = keys ?? []
        var keyed = placed.makeIterator()
        try await insert {
            guard let key = keyed.next() else { return nil }
            guard let album = try next() else {
                throw AlbumKitError(.libraryState, "\(reader.rows.location): \(count) albums were to be inserted, but fewer came")
            }
            return (album, key)
        }
        for key in placed { blocks.add(key) }
    }

    /// Spreads out the narrowest window around `gap` that leaves room for `count` new rows
    /// there, rewriting the window's keys; returns the new rows' keys.
    private mutating func respread(around gap: Int, making count: Int) async throws -> [Double] {
        for window in SortKeys.windows(around: gap, total: blocks.total) {
            let read = try await reader.keys(at: (window.lowerBound - 1)..<(window.upperBound + 1), blocks)
            let below = window.lowerBound > 0 ? read.first?.key : nil
            let above = window.upperBound < blocks.total ? read.last?.key : nil
            let rows = Array(read.dropFirst(window.lowerBound > 0 ? 1 : 0).prefix(window.count))
            guard let (windowKeys, newKeys) = SortKeys.respread(
                window: window, total: blocks.total, gap: gap, count: count, below: below, above: above)
            else { continue }
            for (row, key) in zip(rows, windowKeys) where key != row.key {
                try await connection.execute(RowStoreSQL.moveAlbum, [.real(key), .text(row.id.rawValue)])
                blocks.remove(row.key)
                blocks.add(key)
            }
            return newKeys
        }
        preconditionFailure("the last window is the whole library, which always has room")
    }

    /// Removes `albums`, which stand at `positions`, checking that they do.
    private mutating func removeRun(_ albums: [Album], at positions: Range<Int>, _ edit: LibraryEdit) async throws {
        let found = try await reader.keys(at: positions, blocks)
        guard found.count == albums.count, zip(found, albums).allSatisfy({ $0.id == $1.id }) else { throw misfit(edit) }
        if found.count == 1 {
            try await connection.execute(RowStoreSQL.deleteAlbum, [.text(found[0].id.rawValue)])
        } else {
            try await connection.execute(RowStoreSQL.deleteAlbumsBetween, [.real(found[0].key), .real(found[found.count - 1].key)])
        }
        for row in found { blocks.remove(row.key) }
    }

    /// The row at `index`, which must be the album `id`.
    private func stored(at index: Int, expecting id: AlbumID, _ edit: LibraryEdit) async throws -> StoredAlbum {
        guard let row = try await reader.albums(at: index..<(index + 1), blocks).first, row.album.id == id else { throw misfit(edit) }
        return row
    }

    /// Inserts the rows `next` gives, until it gives nil, in batches of ``RowStoreSQL/insertBatch``.
    private func insert(_ next: () throws -> (Album, Double)?) async throws {
        var batch: [(Album, Double)] = []
        batch.reserveCapacity(RowStoreSQL.insertBatch)
        while let row = try next() {
            batch.append(row)
            if batch.count == RowStoreSQL.insertBatch { try await insert(batch: &batch) }
        }
        if !batch.isEmpty { try await insert(batch: &batch) }
    }

    /// Inserts `batch` with one statement and empties it.
    private func insert(batch: inout [(Album, Double)]) async throws {
        try await connection.execute(RowStoreSQL.insertAlbums(batch.count, verb: insertVerb), batch.flatMap { RowStoreSQL.insertArguments($0, key: $1) })
        batch.removeAll(keepingCapacity: true)
    }

    // MARK: - Blocks

    /// Drops and merges small blocks, splits large ones (reading their keys), and writes the
    /// block rows that changed.
    private mutating func settleBlocks() async throws {
        blocks.compact()
        while let block = blocks.oversized {
            let keys = try await reader.keys(inBlock: block, blocks)
            guard keys.count == blocks.counts[block] else {
                throw reader.rows.damaged("table albumkit_blocks counts \(blocks.counts[block]) albums in a block that holds \(keys.count)")
            }
            blocks.split(block, keys: keys)
        }
        let (deleted, written) = blocks.changes(since: storedBlocks)
        for low in deleted { try await connection.execute(RowStoreSQL.deleteBlock, [.real(low)]) }
        for (low, count) in written { try await connection.execute(RowStoreSQL.writeBlock, [.real(low), .integer(Int64(count))]) }
    }

    private func misfit(_ edit: LibraryEdit) -> AlbumKitError {
        AlbumKitError(.libraryState, "\(reader.rows.location): the change \(edit) does not fit the stored order of \(blocks.total) albums; it was changed elsewhere")
    }
}
