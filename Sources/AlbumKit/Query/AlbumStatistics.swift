/// Figures about a set of albums, as `albumkit stats` shows them.
public struct AlbumStatistics: Sendable, Hashable, Codable {
    /// How many albums.
    public var albums = 0
    /// How many different artists, ignoring case.
    public var artists = 0
    /// How many different genres, ignoring case (an empty genre is none).
    public var genres = 0
    /// The earliest year, when any album has one.
    public var firstYear: Int?
    /// The latest year, when any album has one.
    public var lastYear: Int?
    /// Albums without a year.
    public var withoutYear = 0
    /// Albums whose cover is stored with the library.
    public var stored = 0
    /// Albums whose cover is not fetched yet, or gone from the store.
    public var missing = 0
    /// Albums whose cover's last fetch failed.
    public var failed = 0
    /// Albums without a cover reference.
    public var noCover = 0
    /// The bytes of the stored covers these albums use, each cover counted once.
    public var storedCoverBytes: Int64 = 0
    /// The albums by label, most first (`""` for none).
    public var byLabel: [Share] = []
    /// The albums by format, most first (`""` for none).
    public var byFormat: [Share] = []
    /// The albums by decade (`1970s`), in order (`""` for no year).
    public var byDecade: [Share] = []
    /// The albums by rating (`4.5`), highest first (`""` for unrated).
    public var byRating: [Share] = []

    /// How many of the albums have one value.
    public struct Share: Sendable, Hashable, Codable {
        /// The value (`""` for none).
        public var value: String
        /// How many albums have it.
        public var albums: Int
    }

    /// The figures of `albums`, in which covers stored under `sizes`' keys have those sizes.
    public init(_ albums: [ListedAlbum], coverKeys: (Album) -> CoverKey?, sizes: [CoverKey: Int]) {
        self.albums = albums.count
        artists = Set(albums.map { $0.album.artist.lowercased() }).count
        genres = Set(albums.map { $0.album.genre.lowercased() }.filter { !$0.isEmpty }).count
        let years = albums.compactMap { Int($0.album.year) }
        firstYear = years.min()
        lastYear = years.max()
        withoutYear = albums.count - years.count
        var keys = Set<CoverKey>()
        for listed in albums {
            switch listed.cover {
            case .stored:
                stored += 1
                if let key = coverKeys(listed.album) { keys.insert(key) }
            case .missing: missing += 1
            case .failed: failed += 1
            case .none: noCover += 1
            }
        }
        storedCoverBytes = keys.reduce(0) { $0 + Int64(sizes[$1] ?? 0) }
        byLabel = Self.shares(albums.map { $0.album[.label] ?? "" }, mostFirst: true)
        byFormat = Self.shares(albums.map { $0.album[.format] ?? "" }, mostFirst: true)
        byDecade = Self.shares(albums.map { Int($0.album.year).map { "\($0 / 10 * 10)s" } ?? "" }, mostFirst: false)
        byRating = Self.shares(albums.map { $0.album[.rating] ?? "" }, mostFirst: false).sorted {
            (Double($0.value) ?? -1) > (Double($1.value) ?? -1)
        }
    }

    /// The distinct values and their counts: most first (ties by value), or by value.
    private static func shares(_ values: [String], mostFirst: Bool) -> [Share] {
        var counts: [String: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return counts.map { Share(value: $0.key, albums: $0.value) }.sorted {
            mostFirst && $0.albums != $1.albums ? $0.albums > $1.albums : $0.value < $1.value
        }
    }
}

extension Library {
    /// The figures of the albums `query` matches (all by default).
    public func statistics(matching query: AlbumQuery = .all) async throws -> AlbumStatistics {
        let listed = try await listed(matching: query)
        let resolutions = memento.covers
        let keyOf: @Sendable (Album) -> CoverKey? = { album in CoverState.judged(album, resolutions: resolutions).key }
        var sizes: [CoverKey: Int] = [:]
        for key in Set(listed.filter { $0.cover == .stored }.compactMap { keyOf($0.album) }) {
            sizes[key] = try await storage.covers.byteCount(of: key)
        }
        return AlbumStatistics(listed, coverKeys: keyOf, sizes: sizes)
    }
}
