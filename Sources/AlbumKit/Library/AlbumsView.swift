/// The albums as a change sees them under the writer lock, or a reader sees them: all in
/// memory, or a database answering one question at a time (``LibraryPointReads``).
protocol AlbumsView: Sendable {
    /// How many albums there are.
    func count() async throws -> Int
    /// The albums at `range` (0-based, clamped).
    func albums(in range: Range<Int>) async throws -> [Album]
    /// The position of the album with `id`.
    func index(of id: AlbumID) async throws -> Int?
    /// The position of the first album whose ``Album/duplicateKey`` is `key`.
    func firstIndex(ofDuplicateKey key: String) async throws -> Int?
}

extension AlbumsView {
    /// The album at `index`.
    func album(at index: Int) async throws -> Album {
        guard let album = try await albums(in: index..<(index + 1)).first else {
            throw AlbumKitError(.libraryState, "no album at position \(index + 1); the library was changed elsewhere")
        }
        return album
    }

    /// The album with `id` and its 0-based index; nil when there is none. Point reads find the
    /// index, then read the album there: a change by another process between the two can move
    /// it, so the album read must be the one asked for, else it is looked up again.
    func album(withID id: AlbumID) async throws -> (index: Int, album: Album)? {
        for _ in 0..<4 {
            guard let index = try await index(of: id) else { return nil }
            if let album = try await albums(in: index..<(index + 1)).first, album.id == id { return (index, album) }
        }
        throw AlbumKitError(.libraryState, "album '\(id)' moved each time it was read; the library is being changed elsewhere")
    }

    /// The album with `id`, read first at `index`, where it was seen last (one read of one
    /// album), else looked up by its id; nil when there is none.
    func album(withID id: AlbumID, near index: Int) async throws -> (index: Int, album: Album)? {
        if index >= 0, let album = try await albums(in: index..<(index + 1)).first, album.id == id { return (index, album) }
        return try await album(withID: id)
    }

    /// The 0-based index `reference` names and the album there.
    func resolve(_ reference: AlbumReference) async throws -> (index: Int, album: Album) {
        switch reference {
        case .position(let position):
            let count = try await count()
            guard position >= 1, position <= count else { throw AlbumKitError.noSuchAlbum(reference.description, count: count) }
            return (position - 1, try await album(at: position - 1))
        case .id(let id):
            guard let found = try await album(withID: id) else { throw AlbumKitError(.noSuchAlbum, "no album with id '\(id)'") }
            return found
        case .words:
            // Libraries pin words to an id first (they know the cover states a query may ask for).
            let snapshot = LibrarySnapshot(albums: try await albums(in: 0..<(try await count())))
            let index = try reference.index(in: snapshot)
            return (index, snapshot.albums[index])
        }
    }
}

/// Albums held in memory, as a view.
struct AlbumsInMemory: AlbumsView {
    let albums: [Album]

    func count() async throws -> Int { albums.count }
    func albums(in range: Range<Int>) async throws -> [Album] { Array(albums[range.clamped(to: albums.indices)]) }
    func index(of id: AlbumID) async throws -> Int? { albums.firstIndex { $0.id == id } }
    func firstIndex(ofDuplicateKey key: String) async throws -> Int? { albums.firstIndex { $0.hasDuplicateKey(key) } }
}

/// A backend's point reads, as a view.
struct AlbumsByPointReads: AlbumsView {
    let reads: any LibraryPointReads

    func count() async throws -> Int { try await reads.count() }
    func albums(in range: Range<Int>) async throws -> [Album] { try await reads.albums(in: range) }
    func index(of id: AlbumID) async throws -> Int? { try await reads.index(of: id) }
    func firstIndex(ofDuplicateKey key: String) async throws -> Int? { try await reads.firstIndex(ofDuplicateKey: key) }
}
