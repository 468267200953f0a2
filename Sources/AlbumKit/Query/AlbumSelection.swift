/// The albums command-line words choose for a change to several (`remove`, `update`):
/// either every word names one album — a position, an id, a unique id prefix — or all the
/// words together are one ``AlbumQuery``. Mixing the two is an error, so that `remove 3`
/// never means "albums whose title holds 3".
public struct AlbumSelection: Sendable, Hashable {
    /// The chosen albums, in library order; never empty.
    public let albums: [ListedAlbum]
    /// Whether a query chose them (a change to more than one is then confirmed first).
    public let byQuery: Bool

    /// The albums `albums` (in library order), named one by one.
    init(albums: [ListedAlbum], byQuery: Bool) {
        self.albums = albums
        self.byQuery = byQuery
    }

    /// Chooses in `snapshot`; `coverState` tells an album's cover state when a query asks.
    public init(words: [String], in snapshot: LibrarySnapshot, coverState: (Album) -> CoverState) throws(AlbumKitError) {
        var named = Set<Int>()
        var queryWords: [String] = []
        for word in words {
            if let position = AlbumReference.position(word) {
                named.insert(try AlbumReference.position(position).index(in: snapshot, coverState: coverState))
            } else if let matches = AlbumReference.idMatches(word, in: snapshot) {
                guard matches.count == 1 else { throw AlbumReference.ambiguous("'\(word)'", matches, in: snapshot) }
                named.insert(matches[0])
            } else {
                queryWords.append(word)
            }
        }
        guard named.isEmpty || queryWords.isEmpty else {
            throw AlbumKitError(
                .invalidQuery,
                "'\(queryWords[0])' is not a position or an id; name albums either by positions and ids or by a query, not both")
        }
        let indexes: [Int]
        if queryWords.isEmpty {
            indexes = named.sorted()
        } else {
            let query = try AlbumQuery(terms: queryWords)
            indexes = query.indexes(in: snapshot, coverState: coverState)
            guard !indexes.isEmpty else { throw AlbumKitError(.noSuchAlbum, "no album matches '\(query)'") }
        }
        albums = indexes.map { ListedAlbum(position: $0 + 1, album: snapshot.albums[$0], cover: coverState(snapshot.albums[$0])) }
        byQuery = !queryWords.isEmpty
    }
}
