/// An album as an input file gives it, before validation: the id may be missing, the year
/// may be an integer, unknown keys are ignored.
public struct AlbumRecord: Sendable, Hashable, Decodable {
    public var id: AlbumID?
    public var title: String
    public var artist: String
    public var genre: String
    public var year: String
    /// The cover reference as the input gives it (any text; checked by ``validated(newID:label:)``).
    public var coverUrl: String? {
        get { cover?.text }
        set { cover = newValue.map(CoverReference.init) }
    }
    /// The cover reference as kept: a stored cover's name in its bytes (an import holds every
    /// record until its commit; see ``CoverReference``).
    package private(set) var cover: CoverReference?

    public init(
        id: AlbumID? = nil, title: String, artist: String, genre: String = "", year: String = "",
        coverUrl: String? = nil
    ) {
        self.id = id
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.cover = coverUrl.map(CoverReference.init)
    }

    /// A record whose cover reference is kept as `cover` (read back from a scratch file).
    package init(id: AlbumID?, title: String, artist: String, genre: String, year: String, cover: CoverReference?) {
        self.init(id: id, title: title, artist: artist, genre: genre, year: year)
        self.cover = cover
    }

    /// The record of a validated album (its id included).
    public init(_ album: Album) {
        self.init(
            id: album.id, title: album.title, artist: album.artist, genre: album.genre, year: album.year,
            coverUrl: album.coverUrl)
    }

    private enum CodingKeys: String, CodingKey { case id, title, artist, genre, year, coverUrl }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(String.self, forKey: .id).map(AlbumID.init(rawValue:))
        title = try container.decode(String.self, forKey: .title)
        artist = try container.decode(String.self, forKey: .artist)
        genre = try container.decodeIfPresent(String.self, forKey: .genre) ?? ""
        cover = try container.decodeIfPresent(String.self, forKey: .coverUrl).map(CoverReference.init)
        if let text = try? container.decodeIfPresent(String.self, forKey: .year) {
            year = text
        } else if let number = try container.decodeIfPresent(Int.self, forKey: .year) {
            year = String(number)
        } else {
            year = ""
        }
    }

    /// Validates the record into an album, giving it `id` when it has none.
    /// `label` names the album in errors (for instance "albums.json #3 'Title'").
    public func validated(newID: @autoclosure () -> AlbumID, label: @autoclosure () -> String) throws(AlbumKitError) -> Album {
        try Album(
            id: id ?? newID(), title: title, artist: artist, genre: genre, year: year, coverUrl: coverUrl,
            label: label())
    }
}
