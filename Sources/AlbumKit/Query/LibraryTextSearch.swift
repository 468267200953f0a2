/// What a database-backed library offers a query besides point reads: the albums whose
/// folded text holds some words (``AlbumQuery/searchWords``), found by the database, so that a
/// query over a large library reads the albums it may match, not every album. Albums are named
/// by their place in the library order (a number that only orders them: the row store's sort
/// key), and every answer is tied to the generation of the library it was read at (its
/// ``LibraryPointReads/revision()``).
///
/// Package-internal: the row store offers it through its point reads; a backend written
/// elsewhere has none, and its queries list every album.
package protocol LibraryTextSearch: LibraryPointReads {
    /// The places, in library order, of the albums whose search text holds every one of
    /// `words`, and the generation they were read at.
    func places(holding words: [SearchWord]) async throws -> (generation: Int64, places: [Double])
    /// In one pass, the albums holding every one of `words` that `test` accepts, in library
    /// order: their places, and (when `albums`) the albums themselves, each with the details
    /// `details` names; and the generation they were read at.
    func matches(holding words: [SearchWord], details: Set<AlbumField>, albums: Bool, where test: SearchedTest)
        async throws -> (generation: Int64, places: [Double], albums: [Album])
    /// The albums holding every one of `words` that `test` accepts, with the details `details`
    /// names, handed to `run` as the store reads them, `size` at a time, each with its place
    /// (in the store's order, which need not be the library's: a caller may look at them
    /// meanwhile); then the 0-based positions of all of them in library order, and the
    /// generation they were read at. Throws ``LibraryMovedOn`` when the positions could not be
    /// read at that generation.
    func positionedMatches(
        holding words: [SearchWord], details: Set<AlbumField>, where test: SearchedTest, inRunsOf size: Int,
        _ run: @escaping @Sendable ([(place: Double, album: Album)]) -> Void
    ) async throws -> (generation: Int64, positions: [Int])
    /// The first albums in library order holding every one of `words` that `keep` accepts:
    /// those holding the words are read in order, with the details `details` names, until
    /// `count` are accepted or `budget` are read (a batch may read a little past either).
    func firstMatches(holding words: [SearchWord], details: Set<AlbumField>, count: Int, budget: Int, where keep: @escaping @Sendable (Album) -> Bool)
        async throws -> FirstMatches
    /// The albums at `places` (increasing), their details those `details` names, each with
    /// its 0-based position; and, when `current` is given and the library holds it, that
    /// album's place and 0-based position: one state of the library, read in one go. Throws
    /// ``LibraryMovedOn`` when the library is no longer at `generation`.
    func albums(at places: [Double], details: Set<AlbumField>, current: AlbumID?, generation: Int64) async throws -> PlacedAlbums
    /// The 0-based positions of the albums at `places` (increasing). Throws ``LibraryMovedOn``
    /// when the library is no longer at `generation`.
    func positions(of places: [Double], generation: Int64) async throws -> [Int]
}

/// How ``LibraryTextSearch/matches(holding:details:albums:where:)`` checks each album that
/// holds the words.
package enum SearchedTest: Sendable {
    /// On the album, read with the details asked for.
    case album(@Sendable (Album) -> Bool)
    /// On its folded text alone (``AlbumQuery/foldedTest``): the album is read only when it passes.
    case folded(@Sendable (FoldedAlbum) -> Bool)
}

/// Albums read at their places (``LibraryTextSearch/albums(at:details:current:generation:)``).
package struct PlacedAlbums: Sendable {
    /// The albums, each with its 0-based position, in the order of their places.
    package var albums: [(position: Int, album: Album)]
    /// The current album's place and 0-based position, when asked for and held.
    package var current: (place: Double, position: Int)?

    package init(albums: [(position: Int, album: Album)], current: (place: Double, position: Int)?) {
        self.albums = albums
        self.current = current
    }
}

/// What ``LibraryTextSearch/firstMatches(holding:details:count:budget:where:)`` found.
package struct FirstMatches: Sendable {
    /// The generation the albums were read at.
    package var generation: Int64
    /// The places of every accepted album among those read, in library order.
    package var places: [Double]
    /// Where the reading stopped before the last album holding the words: the place and
    /// 0-based position of the last album read, and how many albums the library holds. Nil
    /// when every album holding the words was read: ``places`` are then all the matches.
    package var stop: (place: Double, position: Int, albums: Int)?

    package init(generation: Int64, places: [Double], stop: (place: Double, position: Int, albums: Int)?) {
        self.generation = generation
        self.places = places
        self.stop = stop
    }
}

/// A library changed between two reads of a ``LibraryTextSearch`` that must see one state:
/// the caller reads again.
package struct LibraryMovedOn: Error {
    package init() {}
}
