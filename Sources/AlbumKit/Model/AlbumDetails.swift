import Foundation

/// Everything of an album beyond the core six (SPEC 1): the optional one-value fields of
/// ``AlbumField/scalars`` (absent stays absent), `tags`, `ids`, `tracks` and `fields`.
/// ``Album`` and ``AlbumRecord`` each carry one; an album's has been checked. The parts live in
/// one shared box, copied on write, so that an album without details costs one word and a
/// list of albums moves as cheaply as it did when albums had six fields.
public struct AlbumDetails: Hashable, Sendable {
    /// The parts; nil for none.
    private var box: Box?

    private final class Box: @unchecked Sendable {
        var values: [String?] = []
        var tags: [String] = []
        var ids: [String: String] = [:]
        var tracks: [Track] = []
        var fields: [String: String] = [:]
        var dropped: [String] = []

        init() {}

        init(copying other: Box) {
            (values, tags, ids, tracks, fields, dropped) = (other.values, other.tags, other.ids, other.tracks, other.fields, other.dropped)
        }
    }

    /// The box, made unique for a change. Each part is changed in place through it (`_modify`):
    /// copied out and set back, every `tracks.append` copied the whole list, and checking an
    /// album of many tracks took time in the square of their number.
    private mutating func writable() -> Box {
        if box == nil {
            box = Box()
        } else if !isKnownUniquelyReferenced(&box) {
            box = Box(copying: box!)
        }
        return box!
    }

    /// The optional one-value fields, by their place in ``AlbumField/scalars``, as each keeps
    /// its text (``AlbumField/canonical(_:album:)``); empty when none is set, else one entry a
    /// field, nil where it is absent. An array, not a map by name: a field is set and read by its
    /// place, with no name hashed (every value of every album an import maps, checks, spills and
    /// writes).
    private(set) var values: [String?] {
        get { box?.values ?? [] }
        set { writable().values = newValue }
        _modify { yield &writable().values }
    }
    /// Styles, moods, secondary genres: in order, without repeats.
    public var tags: [String] {
        get { box?.tags ?? [] }
        set { writable().tags = newValue }
        _modify { yield &writable().tags }
    }
    /// The album's identities in other systems, by name (`musicbrainz`, `discogs`).
    public var ids: [String: String] {
        get { box?.ids ?? [:] }
        set { writable().ids = newValue }
        _modify { yield &writable().ids }
    }
    /// The tracks, in order.
    public var tracks: [Track] {
        get { box?.tracks ?? [] }
        set { writable().tracks = newValue }
        _modify { yield &writable().tracks }
    }
    /// Everything else a source carries or a person adds, by name (`discogs.folder`).
    public var fields: [String: String] {
        get { box?.fields ?? [:] }
        set { writable().fields = newValue }
        _modify { yield &writable().fields }
    }

    /// Keys of an input that a reader dropped, each with why: not a field, never stored, not
    /// compared (``AlbumRecord/droppedKeys``).
    var dropped: [String] {
        get { box?.dropped ?? [] }
        set { writable().dropped = newValue }
    }

    public static func == (left: AlbumDetails, right: AlbumDetails) -> Bool {
        if left.box === right.box { return true }
        return left.values == right.values && left.tags == right.tags && left.ids == right.ids && left.tracks == right.tracks
            && left.fields == right.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(tags)
        hasher.combine(ids)
        hasher.combine(tracks)
        hasher.combine(fields)
    }

    /// No details.
    public init() {}

    /// Details whose one-value fields are `values`, by place in ``AlbumField/scalars`` (one
    /// entry a field) and none empty, as a scratch file's record gives them back: set at once.
    init(checkedValues values: [String?]) {
        precondition(values.count == AlbumField.scalars.count, "one entry for each one-value field")
        if values.contains(where: { $0 != nil }) { writable().values = values }
    }

    /// The value of one of ``AlbumField/scalars`` as text, nil when absent; setting nil or
    /// `""` removes it. Setting another kind of field is a programming error.
    public subscript(field: AlbumField) -> String? {
        get {
            guard let box, !box.values.isEmpty, let place = field.scalarPlace else { return nil }
            return box.values[place]
        }
        set {
            guard let place = field.scalarPlace else { preconditionFailure("\(field.name) is not a one-value optional field") }
            let kept = newValue?.isEmpty == true ? nil : newValue
            guard kept != nil || self[field] != nil else { return }
            let box = writable()
            if box.values.isEmpty { box.values = Array(repeating: nil, count: AlbumField.scalars.count) }
            box.values[place] = kept
            // None left is no entries, so that details compare equal however they got there.
            if kept == nil, !box.values.contains(where: { $0 != nil }) { box.values = [] }
        }
    }

    /// Whether the album has nothing beyond the core six.
    public var isEmpty: Bool {
        guard let box else { return true }
        return box.values.isEmpty && box.tags.isEmpty && box.ids.isEmpty && box.tracks.isEmpty && box.fields.isEmpty
    }

    /// The details checked and kept as SPEC 1 says (texts trimmed, a rating as `4.5`, a moment
    /// in UTC, repeated tags dropped), or the first rule broken, naming `album` and the field.
    func validated(album: () -> String) throws(AlbumKitError) -> AlbumDetails {
        var checked = AlbumDetails()
        let values = try Self.checkedValues(values, album: album)
        if values.contains(where: { $0 != nil }) { checked.values = values }
        if tags.count > AlbumLimits.tags { throw .invalidAlbum(album(), field: "tags", "has \(tags.count) entries; the limit is \(AlbumLimits.tags)") }
        var seen = Set<String>()
        for tag in tags {
            let kept = try FieldRules.text(tag, field: "tags", album: album(), required: false)
            if !kept.isEmpty, seen.insert(kept).inserted { checked.tags.append(kept) }
        }
        checked.ids = try Self.checkedMap(ids, field: "ids", limit: AlbumLimits.ids, album: album, isName: AlbumField.isIDName)
        checked.fields = try Self.checkedMap(fields, field: "fields", limit: AlbumLimits.fields, album: album, isName: AlbumField.isFieldName)
        if tracks.count > AlbumLimits.tracks {
            throw .invalidAlbum(album(), field: "tracks", "has \(tracks.count) tracks; the limit is \(AlbumLimits.tracks)")
        }
        checked.tracks.reserveCapacity(tracks.count)
        for (index, track) in tracks.enumerated() { checked.tracks.append(try track.validated(album: album, position: index + 1)) }
        let size = checked.estimatedJSONBytes
        if size > AlbumLimits.albumBytes {
            throw .invalidAlbum(album(), field: "tracks", "makes the album about \(size) bytes as JSON; the limit is \(AlbumLimits.albumBytes)")
        }
        return checked
    }

    /// The one-value fields checked: each text as its field keeps it; empty values dropped.
    /// The array itself is kept when no value changes (most albums: read back, or made
    /// canonical by their source).
    private static func checkedValues(_ values: [String?], album: () -> String) throws(AlbumKitError) -> [String?] {
        var checked = values
        for (place, value) in values.enumerated() {
            guard let value else { continue }
            let kept = try AlbumField.scalars[place].canonical(value, album: album())
            if !kept.utf8.elementsEqual(value.utf8) { checked[place] = kept.isEmpty ? nil : kept }
        }
        return checked
    }

    /// A map of `ids` or `fields` checked: valid names, at most `limit` entries, each value a
    /// text; empty values dropped.
    static func checkedMap(
        _ map: [String: String], field: String, limit: Int, album: () -> String, isName: (String) -> Bool
    ) throws(AlbumKitError) -> [String: String] {
        if map.count > limit { throw .invalidAlbum(album(), field: field, "has \(map.count) entries; the limit is \(limit)") }
        return try kept(map) { name, value throws(AlbumKitError) in
            guard isName(name) else {
                throw .invalidAlbum(album(), field: field, "has the name '\(name.prefix(60))', which is not [a-z][A-Za-z0-9]*\(field.hasSuffix("fields") ? " (parts joined by dots)" : "")")
            }
            return (name, try FieldRules.text(value, field: "\(field).\(name)", album: album(), required: false))
        }
    }

    /// `map` with each entry as `check` keeps it (its name and text; an empty text dropped), or
    /// the first error `check` throws, entry by entry in the map's order.
    private static func kept(
        _ map: [String: String], _ check: (String, String) throws(AlbumKitError) -> (name: String, text: String)
    ) throws(AlbumKitError) -> [String: String] {
        // Most maps are kept as they are (an album read back, a record its source made
        // canonical): then the map itself is kept, not rebuilt entry by entry (a hash of each
        // name, and a new table, for every map of every album an import checks).
        var index = map.startIndex
        while index != map.endIndex {
            let (name, value) = map[index]
            let kept = try check(name, value)
            guard kept.name.utf8.elementsEqual(name.utf8), !kept.text.isEmpty, kept.text.utf8.elementsEqual(value.utf8) else { break }
            map.formIndex(after: &index)
        }
        guard index != map.endIndex else { return map }
        var checked: [String: String] = [:]
        for (name, value) in map {
            let kept = try check(name, value)
            if !kept.text.isEmpty { checked[kept.name] = kept.text }
        }
        return checked
    }

    /// About how many bytes the details take as JSON (each text and a few bytes of syntax).
    var estimatedJSONBytes: Int {
        func size(_ map: [String: String]) -> Int { map.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 } }
        var total = size(ids) + size(fields) + tags.reduce(0) { $0 + $1.utf8.count + 3 }
        for (place, value) in values.enumerated() {
            if let value { total += AlbumField.scalars[place].name.utf8.count + value.utf8.count + 6 }
        }
        for track in tracks {
            total += track.title.utf8.count + (track.artist?.utf8.count ?? 0) + size(track.ids) + size(track.fields) + 80
        }
        return total
    }
}

/// Anything that carries ``AlbumDetails`` (``Album``, ``AlbumRecord``): the details' parts
/// read and set on it directly.
public protocol AlbumDetailsCarrier {
    /// Everything beyond the core six.
    var details: AlbumDetails { get set }
}

extension AlbumDetailsCarrier {
    /// The value of one of ``AlbumField/scalars`` as text; nil when absent.
    public subscript(field: AlbumField) -> String? {
        get { details[field] }
        set { details[field] = newValue }
    }

    /// Styles, moods, secondary genres, in order.
    public var tags: [String] {
        get { details.tags }
        set { details.tags = newValue }
    }

    /// Identities in other systems, by name.
    public var ids: [String: String] {
        get { details.ids }
        set { details.ids = newValue }
    }

    /// The tracks, in order.
    public var tracks: [Track] {
        get { details.tracks }
        set { details.tracks = newValue }
    }

    /// Everything else, by name.
    public var fields: [String: String] {
        get { details.fields }
        set { details.fields = newValue }
    }

    /// When the album entered the collection, nil when unknown (kept to the second).
    public var added: Date? {
        get { details[.added].flatMap(AlbumField.timestampSeconds).map { Date(timeIntervalSince1970: Double($0)) } }
        set { details[.added] = newValue.map { AlbumField.formatTimestamp(Int($0.timeIntervalSince1970.rounded(.down))) } }
    }

    /// The rating as a number (0.5 to 5), nil when unrated.
    public var rating: Double? {
        get { details[.rating].flatMap(Double.init) }
        set { details[.rating] = newValue.map { AlbumField.ratingText($0) ?? String($0) } }
    }
}
