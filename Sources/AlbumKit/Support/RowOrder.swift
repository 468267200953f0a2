/// The order of a library kept as database rows, one per album, sorted by a numeric key —
/// the helper a database ``StorageBackend`` uses to apply only what a change touched.
///
/// Keys start `spacing` apart, so an insertion takes the midpoint of its neighbours and
/// touches one row. When two neighbours get too close, only a window around the insertion
/// is spread out again (doubling until it has room), so inserting at position 2 of 100 000
/// updates a handful of rows, never all of them.
public struct RowOrder: Sendable, Hashable {
    /// The distance between the keys of a freshly laid out library.
    public static let spacing = 1024.0
    /// The smallest average distance a window may be left with after a local re-spread.
    static let minimumGap = 1.0

    /// The album ids in library order.
    public private(set) var ids: [AlbumID]
    /// Their sort keys, strictly increasing.
    public private(set) var keys: [Double]

    /// The order as loaded from rows sorted by key.
    public init(ids: [AlbumID], keys: [Double]) {
        precondition(ids.count == keys.count, "one key per album")
        self.ids = ids
        self.keys = keys
    }

    /// `ids` laid out `spacing` apart.
    public init(evenlySpaced ids: [AlbumID]) {
        self.init(ids: ids, keys: ids.indices.map { Double($0 + 1) * Self.spacing })
    }

    /// The row operations that store `change`, given that `snapshot` is the library after it,
    /// and updates this order to match. Throws when the edits do not fit this order.
    public mutating func operations(for change: StoredChange, snapshot: LibrarySnapshot) throws(AlbumKitError)
        -> [RowOperation]
    {
        switch change.albums {
        case .unchanged:
            return []
        case .replaced:
            self = RowOrder(evenlySpaced: snapshot.albums.map(\.id))
            return [.deleteAll] + zip(snapshot.albums, keys).map { .insert($0, sortKey: $1) }
        case .edits(let edits):
            var operations: [RowOperation] = []
            for edit in edits { operations += try apply(edit) }
            return operations
        }
    }

    private mutating func apply(_ edit: LibraryEdit) throws(AlbumKitError) -> [RowOperation] {
        switch edit {
        case .insert(let album, let index):
            guard (0...ids.count).contains(index) else { throw misfit(edit) }
            var operations = makeRoom(at: index)
            ids.insert(album.id, at: index)
            keys.insert(key(at: index), at: index)
            operations.append(.insert(album, sortKey: keys[index]))
            return operations
        case .remove(let album, let index):
            guard ids.indices.contains(index), ids[index] == album.id else { throw misfit(edit) }
            ids.remove(at: index)
            keys.remove(at: index)
            return [.delete(album.id)]
        case .update(_, let after):
            return [.update(after)]
        case .move(let id, let from, let to):
            guard ids.indices.contains(from), ids.indices.contains(to), ids[from] == id else { throw misfit(edit) }
            ids.remove(at: from)
            keys.remove(at: from)
            var operations = makeRoom(at: to)
            ids.insert(id, at: to)
            keys.insert(key(at: to), at: to)
            operations.append(.reorder(id, sortKey: keys[to]))
            return operations
        }
    }

    /// The key for a new row at `index`, between its neighbours (room is already made).
    private func key(at index: Int) -> Double {
        switch (index > 0 ? keys[index - 1] : nil, index < keys.count ? keys[index] : nil) {
        case (nil, nil): Self.spacing
        case (let low?, nil): low + Self.spacing
        case (nil, let high?): high - Self.spacing
        case (let low?, let high?): low + (high - low) / 2
        }
    }

    /// Spreads out the smallest window around `index` that leaves room for one more row
    /// between `keys[index - 1]` and `keys[index]`; returns the rows it moved.
    private mutating func makeRoom(at index: Int) -> [RowOperation] {
        guard index > 0, index < keys.count, keys[index] - keys[index - 1] < 2 * Self.minimumGap else { return [] }
        var radius = 1
        while true {
            let start = max(0, index - radius), end = min(keys.count, index + radius)
            let slots = end - start + 1  // the rows in the window and the one to come
            if start == 0 && end == keys.count {
                return respread(start..<end, gapAt: index, from: 0, step: Self.spacing)
            }
            let low = start > 0 ? keys[start - 1] : keys[end] - Self.spacing * Double(slots + 1)
            let high = end < keys.count ? keys[end] : keys[start - 1] + Self.spacing * Double(slots + 1)
            let step = (high - low) / Double(slots + 1)
            if step >= Self.minimumGap { return respread(start..<end, gapAt: index, from: low, step: step) }
            radius *= 2
        }
    }

    /// Gives the rows in `window` keys `from + step`, `from + 2·step`, …, skipping the slot
    /// of the row to be inserted at `gapAt`; returns the rows whose key changed.
    private mutating func respread(_ window: Range<Int>, gapAt index: Int, from low: Double, step: Double)
        -> [RowOperation]
    {
        var operations: [RowOperation] = []
        for position in window {
            let slot = Double(position - window.lowerBound + (position >= index ? 2 : 1))
            let key = low + step * slot
            if key != keys[position] {
                keys[position] = key
                operations.append(.reorder(ids[position], sortKey: key))
            }
        }
        return operations
    }

    private func misfit(_ edit: LibraryEdit) -> AlbumKitError {
        AlbumKitError(.libraryState, "the change \(edit) does not fit the stored order of \(ids.count) albums; it was changed elsewhere")
    }
}

/// One row-level step of storing a change, in the order it must run.
public enum RowOperation: Sendable, Hashable {
    /// Drop every album row (before a full replacement).
    case deleteAll
    /// Add a row for `album` with `sortKey`.
    case insert(Album, sortKey: Double)
    /// Drop the row of this album.
    case delete(AlbumID)
    /// Write the album's fields (its position stays).
    case update(Album)
    /// Give the album's row a new sort key.
    case reorder(AlbumID, sortKey: Double)
}
