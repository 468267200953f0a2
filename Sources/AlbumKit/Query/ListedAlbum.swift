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

    /// The value of `attribute` as text: `""` when absent; tags joined by `, `; the tracks
    /// as their count; ids as their values.
    public func text(of attribute: AlbumAttribute) -> String {
        switch attribute.kind {
        case .position: return String(position)
        case .cover: return cover.rawValue
        case .id(let name): return album.ids[name] ?? ""
        case .own(let name): return album.fields[name] ?? ""
        case .field(let field):
            switch field.kind {
            case .id: return album.id.rawValue
            case .requiredText: return field == .title ? album.title : album.artist
            case .year: return album.year
            case .cover: return album.coverUrl ?? ""
            case .tags: return album.tags.joined(separator: ", ")
            case .ids: return album.ids.values.sorted().joined(separator: ", ")
            case .tracks: return album.tracks.isEmpty ? "" : String(album.tracks.count)
            case .fields: return album.fields.values.sorted().joined(separator: ", ")
            case .text where field.isCore: return album.genre
            default: return album[field] ?? ""
            }
        }
    }

    /// Whether the album has `attribute` at all (`has:barcode`).
    func has(_ attribute: AlbumAttribute) -> Bool {
        if case .cover = attribute.kind { return album.coverUrl != nil }
        return !text(of: attribute).isEmpty
    }
}
