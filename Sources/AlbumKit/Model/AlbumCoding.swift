import Foundation

/// The key of an album or track object: any name (an album object's unknown keys are kept).
struct AlbumCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// An album's `Codable` shape, driven by ``AlbumField``'s table: every field it has under its
/// name (absent optional fields absent, `rating` a number, dates as text); on reading, an
/// unknown key whose value is a text, number or boolean goes to `fields` (when its name is a
/// field name), any other is dropped and named in ``AlbumRecord/droppedKeys``. JSON files,
/// property lists and every caller of `JSONEncoder` share it; the streaming JSON reader and
/// writer (``JSONCursor``, ``JSONOutput``) give the same meaning and bytes.
enum AlbumCoding {
    /// Encodes `record`'s fields.
    static func encode(_ record: AlbumRecord, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AlbumCodingKey.self)
        func key(_ field: AlbumField) -> AlbumCodingKey { AlbumCodingKey(field.name) }
        try container.encodeIfPresent(record.id, forKey: key(.id))
        try container.encode(record.title, forKey: key(.title))
        try container.encode(record.artist, forKey: key(.artist))
        try container.encode(record.genre, forKey: key(.genre))
        try container.encode(record.year, forKey: key(.year))
        try container.encodeIfPresent(record.coverUrl, forKey: key(.coverUrl))
        try encodeDetails(record, into: &container)
    }

    /// Encodes `record`'s fields beyond the core six into `container`.
    static func encodeDetails(_ record: AlbumRecord, into container: inout KeyedEncodingContainer<AlbumCodingKey>) throws {
        func key(_ field: AlbumField) -> AlbumCodingKey { AlbumCodingKey(field.name) }
        for field in AlbumField.scalars {
            guard let value = record[field] else { continue }
            if field.kind == .rating, let number = Double(value) {
                try container.encode(number, forKey: key(field))
            } else {
                try container.encode(value, forKey: key(field))
            }
        }
        if !record.tags.isEmpty { try container.encode(record.tags, forKey: key(.tags)) }
        if !record.ids.isEmpty { try container.encode(record.ids, forKey: key(.ids)) }
        if !record.tracks.isEmpty { try container.encode(record.tracks, forKey: key(.tracks)) }
        if !record.fields.isEmpty { try container.encode(record.fields, forKey: key(.fields)) }
    }

    /// Decodes a record: `title` and `artist` required, the year a text or an integer, the
    /// rest by the table.
    static func decodeRecord(from decoder: any Decoder) throws -> AlbumRecord {
        let container = try decoder.container(keyedBy: AlbumCodingKey.self)
        var record = AlbumRecord(title: "", artist: "")
        var required = Set([AlbumField.title.name, AlbumField.artist.name])
        for key in container.allKeys {
            guard let field = AlbumField.all.first(where: { $0.name == key.stringValue }) else {
                let value = try container.decode(ScalarText.self, forKey: key)
                if !value.isNull { record.keep(unknown: key.stringValue, value.text) }
                continue
            }
            required.remove(field.name)
            switch field.kind {
            case .id:
                record.id = try container.decodeIfPresent(String.self, forKey: key).map(AlbumID.init(rawValue:))
            case .requiredText:
                let text = try container.decode(String.self, forKey: key)
                if field == .title { record.title = text } else { record.artist = text }
            case .year:
                if let text = try? container.decodeIfPresent(String.self, forKey: key) {
                    record.year = text
                } else {
                    record.year = try container.decodeIfPresent(Int.self, forKey: key).map(String.init) ?? ""
                }
            case .cover:
                record.coverUrl = try container.decodeIfPresent(String.self, forKey: key)
            case .text where field.isCore:
                record.genre = try container.decodeIfPresent(String.self, forKey: key) ?? ""
            case .text, .date, .timestamp, .notes:
                record[field] = try container.decodeIfPresent(String.self, forKey: key)
            case .rating:
                record[field] = try container.decodeIfPresent(ScalarText.self, forKey: key)?.text
            case .tags:
                record.tags = try container.decodeIfPresent([String].self, forKey: key) ?? []
            case .ids:
                record.ids = try container.decodeIfPresent([String: String].self, forKey: key) ?? [:]
            case .fields:
                for (name, value) in try container.decodeIfPresent([String: ScalarText].self, forKey: key) ?? [:] {
                    if let text = value.text { record.fields[name] = text }
                }
            case .tracks:
                record.tracks = try container.decodeIfPresent([Track].self, forKey: key) ?? []
            }
        }
        if let missing = required.sorted().first {
            throw DecodingError.keyNotFound(AlbumCodingKey(missing), .init(codingPath: decoder.codingPath, debugDescription: "an album needs a \(missing)"))
        }
        return record
    }
}

extension AlbumRecord {
    /// An unknown key of the input: its text (nil for a value that is not a text, number or
    /// boolean) kept in `fields` when `name` is a field name, else dropped and named.
    mutating func keep(unknown name: String, _ text: String?) {
        if let text, AlbumField.isFieldName(name) {
            if details.fields[name] == nil { details.fields[name] = text }
        } else {
            droppedKeys.append("'\(name.prefix(60))' (\(text == nil ? "not a text, number or boolean" : "not a field name"))")
        }
    }
}

/// A value kept as text: a string as it is, a number as written (`3`, `2.5`), a boolean as
/// `true`/`false`; nil for null, an array or an object.
struct ScalarText: Decodable, Hashable {
    let text: String?
    /// Whether the value was null (nothing to keep, nothing dropped).
    private(set) var isNull = false

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            text = nil
            isNull = true
        } else if let string = try? container.decode(String.self) {
            text = string
        } else if let integer = try? container.decode(Int64.self) {
            text = String(integer)
        } else if let number = try? container.decode(Double.self) {
            text = Self.text(of: number)
        } else if let flag = try? container.decode(Bool.self) {
            text = flag ? "true" : "false"
        } else {
            text = nil
        }
    }

    /// A number as JSON writes it: a whole number without `.0`.
    static func text(of number: Double) -> String {
        let text = number.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

/// A track's `Codable` shape: its fields under their names, absent ones absent; unknown keys
/// with a text, number or boolean go to its `fields`.
struct TrackCoding: Codable {
    let track: Track

    init(_ track: Track) { self.track = track }

    /// How a value under one of a track object's keys is written.
    enum Value {
        /// A string, never empty (an empty one is no value).
        case text
        /// A string, required, that may be empty.
        case title
        /// A whole number.
        case integer
        /// A number, perhaps with a fraction.
        case number
        /// An object of strings.
        case map
    }

    /// A track object's keys in the order they are written (by name), each with how its value
    /// is written: the one list of them (the writer's fast check, ``WriterFormDetails``, walks it).
    static let keys: [(name: String, value: Value)] = [
        ("artist", .text), ("disc", .integer), ("fields", .map), ("ids", .map), ("number", .integer), ("seconds", .number), ("title", .title),
    ]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AlbumCodingKey.self)
        try container.encodeIfPresent(track.artist, forKey: AlbumCodingKey("artist"))
        try container.encodeIfPresent(track.disc, forKey: AlbumCodingKey("disc"))
        if !track.fields.isEmpty { try container.encode(track.fields, forKey: AlbumCodingKey("fields")) }
        if !track.ids.isEmpty { try container.encode(track.ids, forKey: AlbumCodingKey("ids")) }
        try container.encodeIfPresent(track.number, forKey: AlbumCodingKey("number"))
        try container.encodeIfPresent(track.seconds, forKey: AlbumCodingKey("seconds"))
        try container.encode(track.title, forKey: AlbumCodingKey("title"))
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AlbumCodingKey.self)
        var track = Track(title: try container.decode(String.self, forKey: AlbumCodingKey("title")))
        track.artist = try container.decodeIfPresent(String.self, forKey: AlbumCodingKey("artist"))
        track.number = try container.decodeIfPresent(Int.self, forKey: AlbumCodingKey("number"))
        track.disc = try container.decodeIfPresent(Int.self, forKey: AlbumCodingKey("disc"))
        track.seconds = try container.decodeIfPresent(Double.self, forKey: AlbumCodingKey("seconds"))
        track.ids = try container.decodeIfPresent([String: String].self, forKey: AlbumCodingKey("ids")) ?? [:]
        for (name, value) in try container.decodeIfPresent([String: ScalarText].self, forKey: AlbumCodingKey("fields")) ?? [:] {
            if let text = value.text { track.fields[name] = text }
        }
        for key in container.allKeys where !Self.keys.contains(where: { $0.name == key.stringValue }) && AlbumField.isFieldName(key.stringValue) {
            if let text = try container.decode(ScalarText.self, forKey: key).text, track.fields[key.stringValue] == nil {
                track.fields[key.stringValue] = text
            }
        }
        self.track = track
    }
}

extension Track: Codable {
    /// Decodes a track object as albums carry them (``TrackCoding``).
    public init(from decoder: any Decoder) throws { self = try TrackCoding(from: decoder).track }
    /// Encodes a track object as albums carry them (``TrackCoding``).
    public func encode(to encoder: any Encoder) throws { try TrackCoding(self).encode(to: encoder) }
}
