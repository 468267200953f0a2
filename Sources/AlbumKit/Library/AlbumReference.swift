/// How a caller names an album: a 1-based position, or an id. On the command line a bare
/// number is a position and anything else an id (ids always hold a non-digit).
public enum AlbumReference: Hashable, Sendable, CustomStringConvertible {
    case position(Int)
    case id(AlbumID)

    /// Parses command-line text.
    public init(_ text: String) {
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(text) {
            self = .position(number)
        } else {
            self = .id(AlbumID(text))
        }
    }

    public var description: String {
        switch self {
        case .position(let position): "at position \(position)"
        case .id(let id): "with id '\(id)'"
        }
    }

    /// The 0-based index this reference names in `snapshot`.
    public func index(in snapshot: LibrarySnapshot) throws(AlbumKitError) -> Int {
        switch self {
        case .position(let position):
            guard position >= 1, position <= snapshot.albums.count else {
                throw .noSuchAlbum(description, count: snapshot.albums.count)
            }
            return position - 1
        case .id(let id):
            guard let index = snapshot.index(of: id) else {
                throw AlbumKitError(.noSuchAlbum, "no album with id '\(id)'")
            }
            return index
        }
    }
}

/// The fields `update` changes; nil leaves a field as it is, `coverUrl: ""` removes the cover.
public struct AlbumPatch: Sendable, Hashable {
    public var title: String?
    public var artist: String?
    public var genre: String?
    public var year: String?
    public var coverUrl: String?

    public init(title: String? = nil, artist: String? = nil, genre: String? = nil, year: String? = nil, coverUrl: String? = nil) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.coverUrl = coverUrl
    }

    /// `album` with this patch applied and validated.
    public func applied(to album: Album) throws(AlbumKitError) -> Album {
        try Album(
            id: album.id, title: title ?? album.title, artist: artist ?? album.artist, genre: genre ?? album.genre,
            year: year ?? album.year, coverUrl: coverUrl ?? album.coverUrl)
    }
}
