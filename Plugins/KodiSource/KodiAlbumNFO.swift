import AlbumKit
import Foundation
import SourceSupport

/// One Kodi `album.nfo`, read with ``XMLReader`` (tag names in any case): SPEC 9's fields.
struct KodiAlbumNFO {
    private(set) var record = AlbumRecord(title: "", artist: "")

    private var artistDescription = ""
    private var creditedArtists: [String] = []
    private var plainArtists: [String] = []
    private var releaseYear = ""
    private var albumKitID: AlbumID?
    private var releaseDate: String?

    /// Reads the file at `url`; an error names it and the line.
    init(_ url: URL) throws(AlbumKitError) {
        var xml = try XMLReader(url)
        guard case .start(let root)? = try xml.next(), root.lowercased() == "album" else {
            throw xml.error("not a Kodi album.nfo (its root element is not <album>)")
        }
        while let token = try xml.next() {
            guard case .start(let name) = token else { continue }
            try read(name.lowercased(), from: &xml)
        }
        record.artist = [artistDescription, creditedArtists.joined(separator: " / "), plainArtists.joined(separator: " / ")]
            .first { !$0.isEmpty } ?? ""
        if record.year.isEmpty { record.year = releaseYear }
        // `released` is a date of the album's year (SPEC 1); one of another year (an nfo with
        // <year>1986</year> and the reissue's <releasedate>1988-01-01</releasedate>) is kept as
        // it is in `fields`.
        if let releaseDate {
            if releaseDate.hasPrefix(record.year) { record[.released] = releaseDate } else { record.fields["kodi.releasedate"] = releaseDate }
        }
        if record.id == nil { record.id = albumKitID }
    }

    /// The elements read into the album's named fields; every other one goes to `fields` as
    /// `kodi.<name>` (and back, by ``KodiAlbumNFOWriter``).
    static let namedElements: Set<String> = [
        "title", "artistdesc", "artist", "albumartistcredits", "genre", "style", "mood", "theme", "year", "releasedate", "label", "review",
        "rating", "thumb", "musicbrainzalbumid", "musicbrainzreleasegroupid", "albumkitid", "track",
    ]

    /// One child of `<album>`, whose start tag `xml` just returned.
    private mutating func read(_ name: String, from xml: inout XMLReader) throws(AlbumKitError) {
        switch name {
        case "title": record.title = try xml.elementText()
        case "artistdesc": artistDescription = try xml.elementText().trimmed
        case "artist": plainArtists.append(try xml.elementText().trimmed)
        case "albumartistcredits": try readCredits(from: &xml)
        case "genre":
            let genre = try xml.elementText().trimmed
            if record.genre.isEmpty { record.genre = genre } else if !genre.isEmpty { record.tags.append(genre) }
        case "style", "mood", "theme":
            let tag = try xml.elementText().trimmed
            if !tag.isEmpty { record.tags.append(tag) }
        case "year": record.year = try Self.year(try xml.elementText(), tag: name, xml: xml)
        case "releasedate":
            let date = try xml.elementText().trimmed
            releaseYear = try Self.year(date, tag: name, xml: xml)
            if date.count == 10 { releaseDate = date }
        case "label": record[.label] = try xml.elementText().trimmed
        case "review": record[.notes] = try xml.elementText()
        case "rating":
            // Kodi rates out of 10 (`<rating max="10">8</rating>`); SPEC 1 out of 5.
            let text = try xml.elementText().trimmed
            if let value = Double(text), value > 0, value <= 10 {
                record.rating = ((value > 5 ? value / 2 : value) * 2).rounded() / 2
            }
        case "thumb":
            let thumb = try xml.elementText().trimmed
            let lower = thumb.lowercased()
            if record.coverUrl == nil, lower.hasPrefix("https://") || lower.hasPrefix("http://") { record.coverUrl = thumb }
        case "musicbrainzalbumid":
            let id = try xml.elementText().trimmed
            if !id.isEmpty {
                record.id = AlbumID("mb:\(id)")
                record.ids["musicbrainz"] = id
            }
        case "musicbrainzreleasegroupid":
            record.ids["musicbrainzGroup"] = try xml.elementText().trimmed
        case "albumkitid":
            // The id `export --format kodi` keeps for an album without a MusicBrainz one.
            let id = try xml.elementText().trimmed
            if !id.isEmpty { albumKitID = AlbumID(id) }
        case "track": record.tracks.append(try Self.track(from: &xml))
        default:
            // Every other element with a value of its own goes to `fields` as `kodi.<name>`.
            if let text = try xml.textOrSkip()?.trimmed, !text.isEmpty, AlbumField.isFieldName("kodi.\(name)") {
                record.fields["kodi.\(name)"] = text
            }
        }
    }

    /// The elements of a `<track>` read into the track's named fields; every other one goes to
    /// the track's `fields` as `kodi.<name>` (and back, by the exporter).
    static let namedTrackElements: Set<String> = ["title", "position", "duration", "musicbrainztrackid"]

    /// `<track>`: `<title>`, `<position>`, `<duration>` (`mm:ss` or seconds), the MusicBrainz
    /// track id, and every other element with a value (`<rating>`, `<loved>`, `<musicvideo>`) in
    /// `fields` as `kodi.<name>`; its start tag just read.
    private static func track(from xml: inout XMLReader) throws(AlbumKitError) -> Track {
        var track = Track(title: "")
        while true {
            switch try xml.next() {
            case .start(let name):
                switch name.lowercased() {
                case "title": track.title = try xml.elementText()
                case "position": track.number = Int(try xml.elementText().trimmed)
                case "duration": track.seconds = Self.seconds(try xml.elementText().trimmed)
                case "musicbrainztrackid":
                    let id = try xml.elementText().trimmed
                    if !id.isEmpty { track.ids["musicbrainz"] = id }
                case let other:
                    if let text = try xml.textOrSkip()?.trimmed, !text.isEmpty, AlbumField.isFieldName("kodi.\(other)") {
                        track.fields["kodi.\(other)"] = text
                    }
                }
            case .text: continue
            case .end, nil: return track
            }
        }
    }

    /// `06:24`, `1:02:03` or `384` as seconds; nil for anything else.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let numbers = Optional(parts.compactMap { Int($0) }), numbers.count == parts.count else { return nil }
        return Double(numbers.reduce(0) { $0 * 60 + $1 })
    }

    /// `<albumArtistCredits><artist>…</artist><musicBrainzArtistID>…</musicBrainzArtistID></albumArtistCredits>`:
    /// the credited names; each other element with a value (the artist's MusicBrainz id) goes
    /// to `fields` as `kodi.albumartistcredits.<name>`, the values of several credits joined by
    /// ` / ` as their artists are.
    private mutating func readCredits(from xml: inout XMLReader) throws(AlbumKitError) {
        while true {
            switch try xml.next() {
            case .start(let name) where name.lowercased() == "artist":
                let artist = try xml.elementText().trimmed
                if !artist.isEmpty { creditedArtists.append(artist) }
            case .start(let name):
                let field = "\(Self.creditFields)\(name.lowercased())"
                if let text = try xml.textOrSkip()?.trimmed, !text.isEmpty, AlbumField.isFieldName(field) {
                    record.fields[field] = record.fields[field].map { "\($0) / \(text)" } ?? text
                }
            case .text:
                continue
            case .end, nil:
                return
            }
        }
    }

    /// Where the elements of `<albumArtistCredits>` other than `<artist>` go in `fields`.
    static let creditFields = "kodi.albumartistcredits."

    /// How Kodi spells the elements of `<albumArtistCredits>` it writes (names are read in any
    /// case, and kept in lower case).
    static let creditSpellings = ["musicbrainzartistid": "musicBrainzArtistID"]

    /// The year a `<year>` or `<releasedate>` starts with (`1997`, `1997-05-21`); empty is none.
    private static func year(_ text: String, tag: String, xml: XMLReader) throws(AlbumKitError) -> String {
        let value = text.trimmed
        if value.isEmpty { return "" }
        let digits = value.prefix { $0.isASCII && $0.isNumber }
        guard digits.count == 4, value.count == 4 || value.dropFirst(4).first == "-" else {
            throw xml.error("<\(tag)> '\(value.prefix(40))' is not a year or a date")
        }
        return digits == "0000" ? "" : String(digits)
    }
}
