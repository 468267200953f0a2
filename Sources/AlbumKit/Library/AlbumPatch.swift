/// The fields `update` changes: the core ones by property (nil leaves a field as it is,
/// `coverUrl: ""` removes the cover), every other by name through ``set(_:to:)`` and
/// ``unset(_:)``, as `--set NAME=VALUE`, `--unset NAME` and the API's `PATCH` name them.
public struct AlbumPatch: Sendable, Hashable {
    public var title: String?
    public var artist: String?
    public var genre: String?
    public var year: String?
    public var coverUrl: String?
    /// Changes beyond the core six, by path: a field of ``AlbumField/scalars`` (`label`),
    /// `ids.NAME` or `fields.NAME`; a nil value removes it.
    public private(set) var changes: [String: String?] = [:]
    /// Replaces the tags when set (`[]` removes them).
    public var tags: [String]?
    /// Replaces the tracks when set (`[]` removes them).
    public var tracks: [Track]?

    public init(title: String? = nil, artist: String? = nil, genre: String? = nil, year: String? = nil, coverUrl: String? = nil) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.coverUrl = coverUrl
    }

    /// Whether the patch changes nothing.
    public var isEmpty: Bool {
        [title, artist, genre, year, coverUrl].allSatisfy { $0 == nil } && changes.isEmpty && tags == nil && tracks == nil
    }

    /// Sets the field `name` to `value`: a core field (`cover` is `coverUrl`), a named field
    /// (`label`, `rating`), `tags` (separated by commas: `a, b`), `ids.NAME`, `fields.NAME`, or a name of your own
    /// (`mood`, `discogs.folder`), kept in `fields`. A name one or two letters from a named
    /// field is taken for a typo and refused with a suggestion (`fields.NAME` sets it anyway);
    /// a field given twice is refused.
    public mutating func set(_ name: String, to value: String) throws(AlbumKitError) {
        let path = try Self.path(of: name)
        switch path {
        case "title": try once(&title, value, name)
        case "artist": try once(&artist, value, name)
        case "genre": try once(&genre, value, name)
        case "year": try once(&year, value, name)
        case "coverUrl": try once(&coverUrl, value, name)
        case "tags":
            guard tags == nil else { throw Self.twice(name) }
            tags = value.split(separator: ",").map(String.init)
        case "id", "tracks":
            throw AlbumKitError(.invalidAlbum, "'\(name)' cannot be set this way\(path == "id" ? " (an album's id never changes)" : " (tracks are edited as a list, through the API or an import)")")
        default:
            guard changes.updateValue(value, forKey: path) == nil else { throw Self.twice(name) }
        }
    }

    /// Removes the field `name` (named as ``set(_:to:)`` names it); the core fields that may be
    /// empty (`genre`, `year`, `cover`) are emptied, `title` and `artist` cannot be removed.
    public mutating func unset(_ name: String) throws(AlbumKitError) {
        let path = try Self.path(of: name)
        switch path {
        case "genre": try once(&genre, "", name)
        case "year": try once(&year, "", name)
        case "coverUrl": try once(&coverUrl, "", name)
        case "id", "title", "artist":
            throw AlbumKitError(.invalidAlbum, "'\(name)' cannot be removed: every album has one")
        case "tracks":
            guard tracks == nil else { throw Self.twice(name) }
            tracks = []
        case "tags":
            guard tags == nil else { throw Self.twice(name) }
            tags = []
        default:
            guard changes.updateValue(nil, forKey: path) == nil else { throw Self.twice(name) }
        }
    }

    /// `album` with this patch applied and validated.
    public func applied(to album: Album) throws(AlbumKitError) -> Album {
        var details = album.details
        for (path, value) in changes {
            if let field = AlbumField.named(path) {
                details[field] = value
            } else if path.hasPrefix("ids.") {
                details.ids[String(path.dropFirst(4))] = value
            } else {
                details.fields[String(path.dropFirst(7))] = value
            }
        }
        if let tags { details.tags = tags }
        if let tracks { details.tracks = tracks }
        // The year of an album with a release date is that date's: a different one is a conflict.
        if let year, let released = details[.released], !released.hasPrefix(year.trimmingWhiteSpace()) || year.trimmingWhiteSpace().count != 4 {
            throw AlbumKitError(.invalidAlbum, "album '\(album.title)': year '\(year)' differs from released '\(released)'; change or unset released instead")
        }
        return try Album(
            id: album.id, title: title ?? album.title, artist: artist ?? album.artist, genre: genre ?? album.genre,
            year: year ?? album.year, coverUrl: coverUrl ?? album.coverUrl, details: details)
    }

    /// The path a name stands for: a field's own spelling (`catalogNumber`), `ids.NAME`,
    /// `fields.NAME`; a name of one's own becomes `fields.NAME`.
    static func path(of name: String) throws(AlbumKitError) -> String {
        if name.lowercased() == "cover" { return AlbumField.coverUrl.name }
        if let field = AlbumField.named(name), field != .ids, field != .fields { return field.name }
        for prefix in ["ids.", "fields."] where name.hasPrefix(prefix) {
            let rest = String(name.dropFirst(prefix.count))
            let valid = prefix == "ids." ? AlbumField.isIDName(rest) : AlbumField.isFieldName(rest)
            guard valid else { throw invalidName(name) }
            return prefix + rest
        }
        guard AlbumField.isFieldName(name) else { throw invalidName(name) }
        if let close = Spelling.typo(of: name, among: AlbumField.names + ["cover"]) {
            throw AlbumKitError(
                .invalidAlbum,
                "unknown field '\(name)' (did you mean '\(close)'? to keep a field of your own by that name, write 'fields.\(name)')")
        }
        return "fields." + name
    }

    private func once(_ slot: inout String?, _ value: String, _ name: String) throws(AlbumKitError) {
        guard slot == nil else { throw Self.twice(name) }
        slot = value
    }

    private static func twice(_ name: String) -> AlbumKitError { AlbumKitError(.invalidAlbum, "field '\(name)' is given twice") }

    private static func invalidName(_ name: String) -> AlbumKitError {
        AlbumKitError(
            .invalidAlbum,
            "'\(name.prefix(60))' is not a field name: use a field of 'albumkit help fields', ids.NAME, or a name of your own made of letters and digits starting with a lower-case letter, parts joined by dots (discogs.folder)")
    }
}
