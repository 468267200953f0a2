/// An album as an input file gives it, before validation: the id may be missing, the year
/// may be an integer; unknown keys with a text, number or boolean value are kept in `fields`,
/// others are dropped and named in ``droppedKeys``.
public struct AlbumRecord: Sendable, Hashable, Decodable, AlbumDetailsCarrier {
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
    /// Every field beyond the core six, as given (checked by ``validated(newID:label:)``).
    public var details: AlbumDetails
    /// Keys of the input that were dropped, each with why (`'rank' (not a text, number or
    /// boolean)`): the reader that dropped them warns once per album. (Kept in the details' box,
    /// so that a record costs no more room than it must.)
    public var droppedKeys: [String] {
        get { details.dropped }
        set { details.dropped = newValue }
    }

    public init(
        id: AlbumID? = nil, title: String, artist: String, genre: String = "", year: String = "",
        coverUrl: String? = nil, details: AlbumDetails = AlbumDetails()
    ) {
        self.id = id
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.cover = coverUrl.map(CoverReference.init)
        self.details = details
    }

    /// A record whose cover reference is kept as `cover` (read back from a scratch file).
    package init(
        id: AlbumID?, title: String, artist: String, genre: String, year: String, cover: CoverReference?,
        details: AlbumDetails = AlbumDetails()
    ) {
        self.init(id: id, title: title, artist: artist, genre: genre, year: year, details: details)
        self.cover = cover
    }

    /// The record of a validated album (its id included).
    public init(_ album: Album) {
        self.init(
            id: album.id, title: album.title, artist: album.artist, genre: album.genre, year: album.year,
            cover: album.cover, details: album.details)
    }

    /// Decodes every field by the table (``AlbumCoding``).
    public init(from decoder: any Decoder) throws {
        self = try AlbumCoding.decodeRecord(from: decoder)
    }

    /// Validates the record into an album, giving it `id` when it has none.
    /// `label` names the album in errors (for instance "albums.json #3 'Title'").
    public func validated(newID: @autoclosure () -> AlbumID, label: @autoclosure () -> String) throws(AlbumKitError) -> Album {
        try Album(
            id: id ?? newID(), title: title, artist: artist, genre: genre, year: year, coverUrl: coverUrl,
            details: details, label: label())
    }
}
