import AlbumKit
import Foundation
import SourceSupport

/// A beets album as read (the database or an export), and how it becomes an album, its
/// tracks and its cover (SPEC 9).
struct BeetsAlbum {
    var album = ""
    var albumArtist = ""
    var genre = ""
    /// The genres after the first (newer beets's multi-valued `genres`): the album's `tags`.
    var moreGenres: [String] = []
    /// The year as beets gives it: an integer in the database, text in an export.
    var year = ""
    var musicBrainzID = ""
    /// The art file's path, as beets stores it (bytes; relative to the music directory when
    /// the art lies inside it).
    var artPath = Data()
    /// Every attribute of the album, fixed and flexible, as text by its beets name (`label`,
    /// `catalognum`, `added`, `id`, and those above too); beets's "unset" values (empty, 0) left
    /// out.
    var attributes: [String: String] = [:]
    /// The album's items, in disc and track order, each its attributes as `attributes` has them.
    var items: [[String: String]] = []

    /// The attributes that become named fields (SPEC 9), by beets name.
    private static let namedFields: [(String, AlbumField)] = [
        ("label", .label), ("catalognum", .catalogNumber), ("country", .country), ("barcode", .barcode), ("media", .format),
    ]
    /// The attributes that become ids, by beets name.
    private static let idNames = [("mb_albumid", "musicbrainz"), ("mb_releasegroupid", "musicbrainzGroup"), ("discogs_albumid", "discogs"), ("id", "beets")]
    /// The attributes an item has that its track takes or that only link it to its album.
    static let itemOwn: Set<String> = ["title", "track", "disc", "artist", "length", "mb_trackid", "id", "album_id"]

    /// A database's album.
    init() {}

    /// An album of `beet export`, from its attributes as the database would hold them
    /// (``BeetsExportObject/unformatted``) and its items: beets formats its multi-valued
    /// genres joined by `; `.
    init(exported attributes: [String: String], items: [[String: String]]) {
        album = attributes["album"] ?? ""
        albumArtist = attributes["albumartist"] ?? ""
        let genres = attributes["genre"].map { [$0] } ?? (attributes["genres"] ?? "").components(separatedBy: "; ").map(\.trimmed).filter { !$0.isEmpty }
        genre = genres.first ?? ""
        moreGenres = Array(genres.dropFirst())
        year = attributes["year"] ?? ""
        musicBrainzID = attributes["mb_albumid"] ?? ""
        artPath = Data((attributes["artpath"] ?? "").utf8)
        self.attributes = attributes
        self.items = items
    }

    /// The album record: `mb:<mb_albumid>` when set, year `0` as none, `released` from year,
    /// month and day, `added` from beets's seconds; label, catalog number, country, barcode and
    /// format (`media`: the album's, else its first item's); ids; the items as tracks; every
    /// other attribute in `fields` as `beets.<name in lower camel case>`.
    func record() throws(BeetsProblem) -> AlbumRecord {
        let digits = year.trimmingCharacters(in: .whitespaces)
        guard digits.isEmpty || (digits.allSatisfy { $0.isASCII && $0.isNumber } && digits.count <= 4) else {
            throw BeetsProblem("year '\(digits.prefix(20))' is not a year")
        }
        let number = Int(digits) ?? 0
        let id = musicBrainzID.trimmingCharacters(in: .whitespaces)
        var record = AlbumRecord(
            id: id.isEmpty ? nil : AlbumID("mb:\(id)"), title: album, artist: albumArtist, genre: genre,
            year: number == 0 ? "" : String(number))
        record.tags = moreGenres
        if !id.isEmpty { record.ids["musicbrainz"] = id }
        var rest = attributes
        for taken in ["album", "albumartist", "genre", "genres", "year", "mb_albumid"] { rest[taken] = nil }
        if number > 0 {
            let month = rest.removeValue(forKey: "month").flatMap { Int($0) } ?? 0
            let day = rest.removeValue(forKey: "day").flatMap { Int($0) } ?? 0
            let yearText = String(repeating: "0", count: 4 - String(number).count) + String(number)
            if (1...12).contains(month) {
                record[.released] = (1...31).contains(day) ? String(format: "%@-%02d-%02d", yearText, month, day) : String(format: "%@-%02d", yearText, month)
            }
        }
        var media = rest["media"]
        if media == nil { media = items.lazy.compactMap { $0["media"] }.first }
        for (name, field) in Self.namedFields {
            let value = name == "media" ? media : rest[name]
            rest[name] = nil
            record[field] = value
        }
        if let added = rest["added"], let seconds = Double(added), seconds.isFinite, abs(seconds) < 1e11 {
            record[.added] = Self.timestamp(seconds)
            rest["added"] = nil
        }
        for (name, key) in Self.idNames {
            if let value = rest.removeValue(forKey: name) { record.ids[key] = value }
        }
        for (name, value) in rest { record.fields["beets.\(CSVRow.fieldName(of: name))"] = value }
        var shared = attributes
        shared["media"] = media
        record.tracks = items.map { track(from: $0, sharing: shared) }
        return record
    }

    /// One item as a track: `title` (else its file's name), `track`, `disc`, `artist` when not the
    /// album's, `length`, `ids.musicbrainz` (`mb_trackid`) and `ids.beets`; every other attribute
    /// that is not the album's own value in `fields` as `beets.<name>`.
    private func track(from item: [String: String], sharing album: [String: String]) -> Track {
        var fields: [String: String] = [:]
        for (name, value) in item where !Self.itemOwn.contains(name) && album[name] != value {
            fields["beets.\(CSVRow.fieldName(of: name))"] = value
        }
        var ids: [String: String] = [:]
        if let id = item["mb_trackid"] { ids["musicbrainz"] = id }
        if let id = item["id"] { ids["beets"] = id }
        let artist = item["artist"]
        var title = item["title"]?.trimmed ?? ""
        if title.isEmpty, let path = item["path"] { title = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent }
        return Track(
            title: title, number: item["track"].flatMap { Int($0) }, disc: item["disc"].flatMap { Int($0) },
            artist: artist == albumArtist ? nil : artist, seconds: item["length"].flatMap { Double($0) }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
            ids: ids, fields: fields)
    }

    /// Seconds since 1970 as RFC 3339 in UTC, to the second.
    private static func timestamp(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    /// What a plan shows of an album whose fields cannot make a record: its name and artist.
    var partialRecord: AlbumRecord { AlbumRecord(title: album, artist: albumArtist) }

    /// The album's art, read when `artPath` (made absolute against `musicDirectory`) lies
    /// under `roots`: a cover image, a warning, or nil when it has none.
    func cover(musicDirectory: URL?, roots: FileRoots, maxBytes: Int64) -> Result<CoverImage, CoverImage.Warning>? {
        guard !artPath.isEmpty else { return nil }
        let path = artPath.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        let url: URL
        if path.hasPrefix("/") {
            url = URL(fileURLWithPath: path)
        } else if let musicDirectory {
            url = musicDirectory.appendingPathComponent(path)
        } else {
            return nil
        }
        return CoverImage.read(url, roots: roots, maxBytes: maxBytes, for: album)
            ?? .failure(CoverImage.Warning("album '\(album)': artpath \(url.path) does not exist; no cover"))
    }
}

/// What is wrong with one beets album, in a few words; the reader adds the input and album.
struct BeetsProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
