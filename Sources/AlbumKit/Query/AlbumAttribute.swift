/// A property of a listed album that queries, sort keys and templates name: the album's
/// fields plus its position and the state of its cover.
public enum AlbumAttribute: String, CaseIterable, Sendable {
    case position, id, title, artist, genre, year, coverUrl, cover

    /// Parses a name as people type it, ignoring case (`Artist`, `coverurl`).
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }

    /// Every name, for messages and suggestions.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// Whether values are whole numbers (compared and ranged as numbers).
    var isNumeric: Bool { self == .position || self == .year }
}

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

extension CoverState {
    /// What the memento alone tells of `album`'s cover: its state, and the key whose
    /// presence in the store decides between stored and missing (nil when the state is
    /// settled without the store: none, missing, failed).
    public static func judged(_ album: Album, resolutions: [String: CoverResolution]) -> (state: CoverState, key: CoverKey?) {
        guard let reference = album.coverUrl else { return (.none, nil) }
        let resolution = resolutions[reference]
        guard let key = resolution?.key ?? CoverKey(fileName: reference) else {
            return (resolution?.failure == nil ? .missing : .failed, nil)
        }
        return (.stored, key)
    }

    /// How `album`'s cover stands, given the memento's reference → cover mapping and which
    /// keys the store holds: stored, missing (not fetched yet, or gone from the store),
    /// failed (the last fetch failed), or none.
    public init(of album: Album, resolutions: [String: CoverResolution], isStored: (CoverKey) -> Bool) {
        let (state, key) = Self.judged(album, resolutions: resolutions)
        self = key.map { isStored($0) ? .stored : .missing } ?? state
    }
}
