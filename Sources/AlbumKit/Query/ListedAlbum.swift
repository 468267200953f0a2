/// An album as a listing shows it: its 1-based position and the state of its cover.
public struct ListedAlbum: Sendable, Hashable {
    /// 1-based, as the command line counts.
    public let position: Int
    /// The album itself.
    public let album: Album
    /// Its cover's state, as the store had it when listed.
    public let cover: CoverState

    /// An album at `position` whose cover is in state `cover`.
    public init(position: Int, album: Album, cover: CoverState) {
        self.position = position
        self.album = album
        self.cover = cover
    }

    /// The value of `attribute` as text (`""` for no cover reference).
    public func text(of attribute: AlbumAttribute) -> String {
        switch attribute {
        case .position: String(position)
        case .id: album.id.rawValue
        case .title: album.title
        case .artist: album.artist
        case .genre: album.genre
        case .year: album.year
        case .coverUrl: album.coverUrl ?? ""
        case .cover: cover.rawValue
        }
    }
}
