/// One track of an album (SPEC 1): a title, where it sits (number, disc), its artist when
/// not the album's, its length, its identities elsewhere and whatever else a source carries
/// about it (a play count, a rating, a file).
public struct Track: Hashable, Sendable {
    /// Required, trimmed.
    public var title: String
    /// Its number on its disc, from 1.
    public var number: Int?
    /// The disc it is on, from 1.
    public var disc: Int?
    /// The track's artist, when it is not the album's.
    public var artist: String?
    /// Its length in seconds.
    public var seconds: Double?
    /// Its identities in other systems (`musicbrainz`: the recording or track id).
    public var ids: [String: String]
    /// Everything else about it (`itunes.playCount`, `beets.path`).
    public var fields: [String: String]

    /// A track with these values (checked when its album is made).
    public init(
        title: String, number: Int? = nil, disc: Int? = nil, artist: String? = nil, seconds: Double? = nil,
        ids: [String: String] = [:], fields: [String: String] = [:]
    ) {
        self.title = title
        self.number = number
        self.disc = disc
        self.artist = artist
        self.seconds = seconds
        self.ids = ids
        self.fields = fields
    }

    /// The track checked by SPEC 1's rules; `album` and `position` name it in errors.
    func validated(album: () -> String, position: Int) throws(AlbumKitError) -> Track {
        let field = "tracks[\(position)]"
        var track = self
        track.title = try FieldRules.text(title, field: "\(field).title", album: album(), required: true)
        if let artist {
            let trimmed = try FieldRules.text(artist, field: "\(field).artist", album: album(), required: false)
            track.artist = trimmed.isEmpty ? nil : trimmed
        }
        for (name, value) in [("number", number), ("disc", disc)] {
            if let value, !(1...99_999).contains(value) {
                throw .invalidAlbum(album(), field: "\(field).\(name)", "must be a whole number from 1, not \(value)")
            }
        }
        if let seconds, !(seconds.isFinite && seconds >= 0 && seconds < 1e9) {
            throw .invalidAlbum(album(), field: "\(field).seconds", "must be a length in seconds, not \(seconds)")
        }
        track.ids = try AlbumDetails.checkedMap(ids, field: "\(field).ids", limit: AlbumLimits.ids, album: album, isName: AlbumField.isIDName)
        track.fields = try AlbumDetails.checkedMap(
            fields, field: "\(field).fields", limit: AlbumLimits.fields, album: album, isName: AlbumField.isFieldName)
        return track
    }
}
