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
        if record.id == nil { record.id = albumKitID }
    }

    /// One child of `<album>`, whose start tag `xml` just returned.
    private mutating func read(_ name: String, from xml: inout XMLReader) throws(AlbumKitError) {
        switch name {
        case "title": record.title = try xml.elementText()
        case "artistdesc": artistDescription = try xml.elementText().trimmed
        case "artist": plainArtists.append(try xml.elementText().trimmed)
        case "albumartistcredits": try readCredits(from: &xml)
        case "genre":
            let genre = try xml.elementText().trimmed
            if record.genre.isEmpty { record.genre = genre }
        case "year": record.year = try Self.year(try xml.elementText(), tag: name, xml: xml)
        case "releasedate": releaseYear = try Self.year(try xml.elementText(), tag: name, xml: xml)
        case "thumb":
            let thumb = try xml.elementText().trimmed
            let lower = thumb.lowercased()
            if record.coverUrl == nil, lower.hasPrefix("https://") || lower.hasPrefix("http://") { record.coverUrl = thumb }
        case "musicbrainzalbumid":
            let id = try xml.elementText().trimmed
            if !id.isEmpty { record.id = AlbumID("mb:\(id)") }
        case "albumkitid":
            // The id `export --format kodi` keeps for an album without a MusicBrainz one.
            let id = try xml.elementText().trimmed
            if !id.isEmpty { albumKitID = AlbumID(id) }
        default: try xml.skipElement()
        }
    }

    /// `<albumArtistCredits><artist>…</artist>…</albumArtistCredits>`: the credited names.
    private mutating func readCredits(from xml: inout XMLReader) throws(AlbumKitError) {
        while true {
            switch try xml.next() {
            case .start(let name) where name.lowercased() == "artist":
                let artist = try xml.elementText().trimmed
                if !artist.isEmpty { creditedArtists.append(artist) }
            case .start:
                try xml.skipElement()
            case .text:
                continue
            case .end, nil:
                return
            }
        }
    }

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
