/// The whole library at one moment: the ordered albums and the memento (its history as
/// references; the steps are stored apart).
public struct LibrarySnapshot: Hashable, Sendable {
    public var albums: [Album]
    public var state: LibraryState
    /// Whether `albums` holds every album. False only for the snapshot a library working
    /// through point reads hands its writer: then only `state` is meaningful.
    public var isWhole: Bool

    public init(albums: [Album] = [], state: LibraryState = LibraryState(), isWhole: Bool = true) {
        self.albums = albums
        self.state = state
        self.isWhole = isWhole
    }

    /// The index of the album with `id`, if it is in the library.
    public func index(of id: AlbumID) -> Int? { albums.firstIndex { $0.id == id } }

    /// Applies `edit`, keeping the current album on its album (SPEC 5): when the current album
    /// is removed, the album now at its position becomes current, or the last, or none.
    /// Throws when the edit does not fit this snapshot (a stale or corrupt history).
    public mutating func apply(_ edit: LibraryEdit) throws(AlbumKitError) {
        var ids: Set<AlbumID>?
        try apply(edit, ids: &ids)
    }

    /// ``apply(_:)-(LibraryEdit)`` with the library's ids in `ids`, when the caller keeps them
    /// (kept up to date here).
    private mutating func apply(_ edit: LibraryEdit, ids: inout Set<AlbumID>?) throws(AlbumKitError) {
        switch edit {
        case .insert(let album, let index):
            let taken = ids.map { $0.contains(album.id) } ?? (self.index(of: album.id) != nil)
            guard (0...albums.count).contains(index), !taken else {
                throw Self.misfit(edit, count: albums.count)
            }
            albums.insert(album, at: index)
            ids?.insert(album.id)
        case .remove(let album, let index):
            guard albums.indices.contains(index), albums[index].id == album.id else {
                throw Self.misfit(edit, count: albums.count)
            }
            albums.remove(at: index)
            ids?.remove(album.id)
            if state.current == album.id {
                state.current = albums.isEmpty ? nil : albums[min(index, albums.count - 1)].id
            }
        case .update(let before, let after):
            guard before.id == after.id, let index = index(of: before.id) else {
                throw Self.misfit(edit, count: albums.count)
            }
            albums[index] = after
        case .move(let id, let from, let to):
            guard albums.indices.contains(from), albums.indices.contains(to), albums[from].id == id else {
                throw Self.misfit(edit, count: albums.count)
            }
            albums.insert(albums.remove(at: from), at: to)
        }
    }

    /// Applies every edit of `change` in order — all or none: when an edit does not fit, the
    /// ones applied before it are taken back and the error is thrown. Ids are checked against a
    /// set built once, so an import of 100 000 albums is not 100 000 scans of the library.
    public mutating func apply(_ change: LibraryChange) throws(AlbumKitError) {
        let current = state.current
        var ids: Set<AlbumID>?
        if change.edits.count > 8 {
            ids = Set(albums.map(\.id))
        }
        for (applied, edit) in change.edits.enumerated() {
            do {
                try apply(edit, ids: &ids)
            } catch {
                revert(change.edits[..<applied])
                state.current = current
                throw error
            }
        }
    }

    /// Takes back `edits`, which were applied in order (the inverses, last first).
    public mutating func revert<Edits: BidirectionalCollection<LibraryEdit>>(_ edits: Edits) {
        var ids: Set<AlbumID>? = edits.count > 8 ? Set(albums.map(\.id)) : nil
        for edit in edits.reversed() {
            // The inverse of an edit that was just applied always fits.
            try? apply(edit.inverse, ids: &ids)
        }
    }

    /// The error of an edit that does not fit a library of `count` albums.
    static func misfit(_ edit: LibraryEdit, count: Int) -> AlbumKitError {
        AlbumKitError(.libraryState, "the change \(edit) does not fit the library of \(count) albums; it was changed elsewhere")
    }
}
