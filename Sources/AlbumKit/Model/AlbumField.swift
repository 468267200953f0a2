/// The one table of an album's fields (SPEC 1): each field's name, kind and what it is for.
/// Readers, writers, queries, sort keys, templates, `--set`, `show`, the API's bodies and the
/// page's details are driven by it, so that a new named field is one entry here (and, when it
/// needs a rule of its own, one kind in ``Kind``).
///
/// The core six are stored properties of ``Album``; the other fields live in its
/// ``AlbumDetails``: the optional one-value fields (``scalars``) by name, and `tags`, `ids`,
/// `tracks` and `fields` as their own collections.
public struct AlbumField: Hashable, Sendable, CustomStringConvertible {
    /// How a field's value is shaped, checked, written, compared and shown.
    public enum Kind: Sendable, Hashable {
        /// The album's stable identity.
        case id
        /// Text that must not be empty (title, artist).
        case requiredText
        /// One line of text, possibly empty (genre) or absent (label).
        case text
        /// `""` or one to four digits.
        case year
        /// A cover reference: `http(s)://…`, `file://…` or `covers/<name>`.
        case cover
        /// A release date as precisely as it is known: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
        case date
        /// 0.5 to 5 in steps of 0.5, written as a number.
        case rating
        /// A moment, RFC 3339 in UTC (`2024-01-02T03:04:05Z`).
        case timestamp
        /// Free text in which line breaks are allowed.
        case notes
        /// A list of texts, in order, without repeats.
        case tags
        /// A map from a name (`musicbrainz`) to an identity in another system.
        case ids
        /// The album's tracks (``Track``).
        case tracks
        /// A map from a name (`discogs.folder`) to text: everything else a source carries.
        case fields
    }

    /// The name in files, queries and `--set` (`catalogNumber`).
    public let name: String
    /// How the value is shaped.
    public let kind: Kind
    /// One line for help texts.
    public let summary: String

    public var description: String { name }

    /// Fields are the same when their names are.
    public static func == (left: AlbumField, right: AlbumField) -> Bool { left.name == right.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Whether every album has this field (the core six).
    public var isCore: Bool { Self.core.contains(self) }
}

extension AlbumField {
    public static let id = AlbumField(name: "id", kind: .id, summary: "stable identity, never reused")
    public static let title = AlbumField(name: "title", kind: .requiredText, summary: "the album's title")
    public static let artist = AlbumField(name: "artist", kind: .requiredText, summary: "the album artist")
    public static let genre = AlbumField(name: "genre", kind: .text, summary: "the main genre")
    public static let year = AlbumField(name: "year", kind: .year, summary: "the release year (the year of released when that is set)")
    public static let coverUrl = AlbumField(name: "coverUrl", kind: .cover, summary: "http(s)://…, file://… or covers/<sha256>.<ext>")
    public static let released = AlbumField(name: "released", kind: .date, summary: "release date: YYYY, YYYY-MM or YYYY-MM-DD")
    public static let label = AlbumField(name: "label", kind: .text, summary: "the record label")
    public static let catalogNumber = AlbumField(name: "catalogNumber", kind: .text, summary: "the catalog number as printed (VP 4121)")
    public static let format = AlbumField(name: "format", kind: .text, summary: "the medium as the source writes it (CD, 2xLP, Digital)")
    public static let country = AlbumField(name: "country", kind: .text, summary: "the country of release")
    public static let barcode = AlbumField(name: "barcode", kind: .text, summary: "the barcode as printed")
    public static let rating = AlbumField(name: "rating", kind: .rating, summary: "0.5 to 5 in steps of 0.5")
    public static let added = AlbumField(name: "added", kind: .timestamp, summary: "when it entered the collection (RFC 3339, UTC)")
    public static let notes = AlbumField(name: "notes", kind: .notes, summary: "free text; line breaks allowed")
    public static let tags = AlbumField(name: "tags", kind: .tags, summary: "styles, moods, secondary genres, in order")
    public static let ids = AlbumField(name: "ids", kind: .ids, summary: "identities elsewhere: musicbrainz, discogs, itunes, …")
    public static let tracks = AlbumField(name: "tracks", kind: .tracks, summary: "title, number, disc, artist, seconds, ids, fields")
    public static let fields = AlbumField(name: "fields", kind: .fields, summary: "everything else: discogs.folder, itunes.playCount, mood")

    /// The six every album has, in the order they are shown.
    public static let core: [AlbumField] = [id, title, artist, genre, year, coverUrl]
    /// The optional fields that hold one value each, in the order they are shown.
    public static let scalars: [AlbumField] = [released, label, catalogNumber, format, country, barcode, rating, added, notes]
    /// Every field, in the order `show` lists them.
    public static let all: [AlbumField] = core + scalars + [tags, ids, tracks, fields]

    /// The field's place in ``scalars``; nil for a field that is not one of them.
    var scalarPlace: Int? {
        // Compared by name: the fields' names are short, compared without hashing.
        Self.scalars.firstIndex(of: self)
    }

    /// Every field, its name in byte order: the order of an album object's keys in JSON and
    /// property lists.
    static let sortedByName: [AlbumField] = all.sorted { $0.name < $1.name }

    /// The field called `name`, ignoring case (`catalognumber`), or nil.
    public static func named(_ name: String) -> AlbumField? {
        // Looked up for every value of every album read (spilled, validated): by a table, and
        // the name as spelled first, with no lower-cased copy.
        byName[name] ?? byLowercasedName[name.lowercased()]
    }

    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    private static let byLowercasedName = Dictionary(uniqueKeysWithValues: all.map { ($0.name.lowercased(), $0) })

    /// Every field's name, for messages and suggestions.
    public static var names: [String] { all.map(\.name) }
}
