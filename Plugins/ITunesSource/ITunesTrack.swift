import AlbumKit
import Foundation
import SourceSupport

/// One track of a library, read from its `<dict>` in `Tracks`: what groups it into an album,
/// what the album takes from it, and every other key it has, kept as text (SPEC 9).
struct ITunesTrack {
    var name = ""
    var album = ""
    var albumArtist = ""
    var artist = ""
    var genre = ""
    var year = 0
    var compilation = false
    var persistentID = ""
    var location = ""
    var kind = ""
    var trackNumber: Int?
    var discNumber: Int?
    /// `Total Time`, in milliseconds.
    var totalTime: Int?
    /// `Album Rating`, 0 to 100.
    var albumRating: Int?
    /// `Date Added` as iTunes writes it (`2015-11-24T11:23:47Z`).
    var dateAdded = ""
    /// The media flags set on it (`Movie`, `Podcast`…).
    var mediaFlags: Set<String> = []
    /// Every other key with its value as text, in file order (`Play Count`, `Location`…).
    var otherKeys: [(key: String, value: String)] = []
    /// Keys whose value is a `<data>`, `<array>` or `<dict>`, which no field holds: dropped, and
    /// counted in the library's summary.
    var droppedKeys: [String] = []

    /// The flags iTunes sets on items that are not music, the more telling first, and what
    /// messages call them.
    private static let notMusicFlags = [
        ("Movie", "movie"), ("TV Show", "TV show"), ("Podcast", "podcast"), ("Audiobook", "audiobook"), ("Music Video", "music video"),
        ("iTunesU", "iTunes U item"), ("Has Video", "video"),
    ]

    /// What the item is when it is not music (a movie, a podcast, an audiobook, a video, a
    /// book), by its media flags, else by its `Kind`; nil for music.
    var notMusic: String? {
        if let (_, name) = Self.notMusicFlags.first(where: { mediaFlags.contains($0.0) }) { return name }
        let kind = kind.lowercased()
        if kind.contains("video") || kind.contains("movie") { return "video" }
        if kind.contains("audiobook") || kind.contains("audible") { return "audiobook" }
        if kind.contains("podcast") { return "podcast" }
        if kind.contains("book") || kind.contains("pdf") { return "book" }
        return nil
    }

    /// The artist the track's album is filed under: the album artist, else `Various Artists`
    /// for a compilation, else the track's artist.
    var albumArtistOrFallback: String {
        if !albumArtist.isEmpty { return albumArtist }
        return compilation ? "Various Artists" : artist
    }

    /// Reads the track dictionary whose `<dict>` start tag `xml` just returned; `name` is its
    /// key in `Tracks` (the Track ID), for messages.
    init(reading xml: inout XMLReader, name: String) throws(AlbumKitError) {
        while let key = try xml.nextKey(in: "track \(name)") {
            guard case .start(let type)? = try xml.next() else { throw xml.error("track \(name): '\(key)' has no value") }
            switch key {
            case "Name": self.name = try xml.string(type, key: key, track: name)
            case "Album": album = try xml.string(type, key: key, track: name)
            case "Album Artist": albumArtist = try xml.string(type, key: key, track: name)
            case "Artist": artist = try xml.string(type, key: key, track: name)
            case "Genre": genre = try xml.string(type, key: key, track: name)
            case "Persistent ID": persistentID = try xml.string(type, key: key, track: name)
            case "Year": year = try xml.integer(type, key: key, track: name)
            case "Track Number": trackNumber = try xml.integer(type, key: key, track: name)
            case "Disc Number": discNumber = try xml.integer(type, key: key, track: name)
            case "Total Time": totalTime = try xml.integer(type, key: key, track: name)
            case "Album Rating": albumRating = try xml.integer(type, key: key, track: name)
            case "Date Added":
                guard type == "date" else { throw xml.error("track \(name): 'Date Added' must be a <date>, not <\(type)>") }
                dateAdded = try xml.elementText().trimmed
            case "Compilation":
                guard type == "true" || type == "false" else {
                    throw xml.error("track \(name): 'Compilation' must be <true/> or <false/>, not <\(type)>")
                }
                compilation = type == "true"
                try xml.skipElement()
            case let flag where type == "true" && Self.notMusicFlags.contains(where: { $0.0 == flag }):
                mediaFlags.insert(flag)
                try xml.skipElement()
            default:
                switch type {
                case "string", "integer", "real", "date":
                    let value = try xml.elementText()
                    if key == "Kind" { kind = value }
                    if key == "Location" { location = value }
                    otherKeys.append((key, value))
                case "true", "false":
                    otherKeys.append((key, type))
                    try xml.skipElement()
                default:
                    droppedKeys.append(key)
                    try xml.skipElement()
                }
            }
        }
    }

    /// An `Album Rating` (0–100, 20 a star) as a rating of 0.5 to 5, to the nearest half star;
    /// nil for 0 (unrated) or none.
    static func rating(_ albumRating: Int?) -> Double? {
        guard let albumRating, albumRating > 0 else { return nil }
        return min(5, max(0.5, (Double(albumRating) / 10).rounded() / 2))
    }

    /// Separates the texts of a packed track, and ends one.
    private static let unit: Character = "\u{1F}"
    private static let end: Character = "\u{1E}"

    /// Appends the track, as ``unpack(_:names:)`` reads it back, to `packed`: an album keeps its
    /// tracks packed in one text until it is handed out (a few hundred bytes a track, where a
    /// ``Track`` with its dictionary of fields takes several kilobytes), so a 50 000-track library
    /// fits in little memory. Its texts are `Name`, `Track Number`, `Disc Number`, `Artist` when
    /// not `albumArtist`, `Total Time`, `Persistent ID`, then the number in `names` of a name in
    /// `fields` and its value, for its genre, year, album rating, date added and every other key
    /// (`itunes.playCount`); a separator inside a text becomes a space, as the import's repair
    /// would make it.
    func pack(albumArtist: String, names: inout ITunesFieldNames, into packed: inout String) {
        func add(_ text: String) {
            packed += text.contains { $0 == Self.unit || $0 == Self.end } ? String(text.map { $0 == Self.unit || $0 == Self.end ? " " : $0 }) : text
            packed.append(Self.unit)
        }
        func add(key: String, _ value: String) {
            packed += String(names.number(of: key))
            packed.append(Self.unit)
            add(value)
        }
        let artist = artist.trimmed
        add(name)
        add(trackNumber.map(String.init) ?? "")
        add(discNumber.map(String.init) ?? "")
        add(artist == albumArtist ? "" : artist)
        add(totalTime.map(String.init) ?? "")
        add(persistentID)
        for (key, value) in otherKeys { add(key: key, value) }
        let own: [(String, String)] = [
            ("Genre", genre), ("Year", year == 0 ? "" : String(year)), ("Album Rating", albumRating.map(String.init) ?? ""),
            ("Date Added", dateAdded), ("Compilation", compilation ? "true" : ""),
        ]
        for (key, value) in own where !value.isEmpty { add(key: key, value) }
        packed.append(Self.end)
    }

    /// The tracks `pack(albumArtist:names:into:)` packed into `packed`, in order (SPEC 9): `Name`,
    /// `Track Number`, `Disc Number`, `Total Time` ÷ 1000, `Artist` when not the album's,
    /// `ids.itunes` the `Persistent ID`, and the rest in `fields`, under the names of `names`.
    static func unpack(_ packed: String, names: ITunesFieldNames) -> [Track] {
        packed.split(separator: end).map { record in
            let texts = record.split(separator: unit, omittingEmptySubsequences: false)
            func text(_ index: Int) -> String { texts.indices.contains(index) ? String(texts[index]) : "" }
            var fields: [String: String] = [:]
            var index = 6
            while index + 1 < texts.count {
                if let name = names.name(numbered: texts[index]) { fields[name] = String(texts[index + 1]) }
                index += 2
            }
            let artist = text(3)
            return Track(
                title: text(0), number: Int(text(1)).flatMap { $0 > 0 ? $0 : nil }, disc: Int(text(2)).flatMap { $0 > 0 ? $0 : nil },
                artist: artist.isEmpty ? nil : artist, seconds: Int(text(4)).map { Double($0) / 1000 },
                ids: text(5).isEmpty ? [:] : ["itunes": text(5)], fields: fields)
        }
    }

    /// A key's name in `fields`: `itunes.` and the key in lower camel case (`Play Count` →
    /// `itunes.playCount`).
    static func fieldName(_ key: String) -> String { "itunes.\(CSVRow.fieldName(of: key))" }
}

extension XMLReader {
    /// In a property-list `<dict>`: the next key, or nil at the dictionary's end; `place`
    /// names the dictionary in errors.
    mutating func nextKey(in place: String) throws(AlbumKitError) -> String? {
        switch try next() {
        case .start("key"): return try elementText()
        case .end("dict"): return nil
        case .start(let other): throw error("\(place): <\(other)> where a <key> was expected")
        default: throw error("\(place): the dictionary is malformed")
        }
    }

    /// The next element must start with `name`.
    mutating func expectStart(_ name: String, in place: String) throws(AlbumKitError) {
        let token = try next()
        guard token == .start(name) else {
            if case .start(let other) = token { throw error("\(place): <\(other)> where <\(name)> was expected") }
            throw error("\(place): <\(name)> was expected")
        }
    }

    /// The text of a value that must be a `<string>` (its start tag, `type`, just read).
    mutating func string(_ type: String, key: String, track: String) throws(AlbumKitError) -> String {
        guard type == "string" else { throw error("track \(track): '\(key)' must be a <string>, not <\(type)>") }
        return try elementText()
    }

    /// The number of a value that must be an `<integer>` (its start tag, `type`, just read).
    mutating func integer(_ type: String, key: String, track: String) throws(AlbumKitError) -> Int {
        guard type == "integer", let number = Int(try elementText().trimmed) else {
            throw error("track \(track): '\(key)' must be an <integer>\(type == "integer" ? "" : ", not <\(type)>")")
        }
        return number
    }
}
