/// The albums of a library file found by its lines (``LibraryFileLines``) after a change's
/// edits: each an album of the file, written again as its bytes are, or one the edits bring,
/// written anew. The edits are checked as ``LibrarySnapshot/apply(_:)-(LibraryEdit)`` checks
/// them, so a change that does not fit is refused the same way, and the file written is the
/// one a whole write of the changed library gives, byte for byte (the file's albums being
/// what the writer wrote for them), without reading the albums the change leaves alone.
struct SplicedAlbums {
    private enum Slot {
        /// The album at this index of the file.
        case kept(Int)
        case new(Album)
    }

    private let lines: LibraryFileLines
    private var slots: [Slot]

    /// The file's albums as they are.
    init(_ lines: LibraryFileLines) {
        self.lines = lines
        slots = lines.albums.indices.map(Slot.kept)
    }

    /// Applies `edits` in order; throws the error a snapshot's `apply` throws for one that
    /// does not fit (the albums are then of no further use).
    mutating func apply(_ edits: [LibraryEdit]) throws(AlbumKitError) {
        var ids: Set<AlbumID>?
        for edit in edits {
            switch edit {
            case .insert(let album, let index):
                if ids == nil { ids = Set(slots.indices.map(id(at:))) }
                guard (0...slots.count).contains(index), ids?.insert(album.id).inserted == true else {
                    throw LibrarySnapshot.misfit(edit, count: slots.count)
                }
                slots.insert(.new(album), at: index)
            case .remove(let album, let index):
                guard slots.indices.contains(index), id(at: index) == album.id else { throw LibrarySnapshot.misfit(edit, count: slots.count) }
                slots.remove(at: index)
                ids?.remove(album.id)
            case .update(let before, let after):
                guard before.id == after.id, let index = slots.indices.first(where: { id(at: $0) == before.id }) else {
                    throw LibrarySnapshot.misfit(edit, count: slots.count)
                }
                slots[index] = .new(after)
            case .move(let id, let from, let to):
                guard slots.indices.contains(from), slots.indices.contains(to), self.id(at: from) == id else {
                    throw LibrarySnapshot.misfit(edit, count: slots.count)
                }
                slots.insert(slots.remove(at: from), at: to)
            }
        }
    }

    /// Writes the albums in order as elements of the library's list.
    func write(to output: inout JSONOutput, first: inout Bool) throws {
        for slot in slots {
            switch slot {
            case .kept(let index): try output.listedAlbum(bytes: lines.bytes(at: index), first: &first)
            case .new(let album): try output.listedAlbum(album, first: &first)
            }
        }
    }

    private func id(at index: Int) -> AlbumID {
        switch slots[index] {
        case .kept(let line): lines.ids[line]
        case .new(let album): album.id
        }
    }
}
