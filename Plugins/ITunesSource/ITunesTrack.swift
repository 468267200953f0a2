import AlbumKit
import Foundation
import SourceSupport

/// The fields of one track an album needs, read from its `<dict>` in `Tracks`.
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
    /// The media flags set on it (`Movie`, `Podcast`…).
    var mediaFlags: Set<String> = []

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
            case "Kind": kind = try xml.string(type, key: key, track: name)
            case let flag where type == "true" && Self.notMusicFlags.contains(where: { $0.0 == flag }):
                mediaFlags.insert(flag)
                try xml.skipElement()
            case "Album": album = try xml.string(type, key: key, track: name)
            case "Album Artist": albumArtist = try xml.string(type, key: key, track: name)
            case "Artist": artist = try xml.string(type, key: key, track: name)
            case "Genre": genre = try xml.string(type, key: key, track: name)
            case "Persistent ID": persistentID = try xml.string(type, key: key, track: name)
            case "Location": location = try xml.string(type, key: key, track: name)
            case "Year":
                guard type == "integer", let number = Int(try xml.elementText().trimmed) else {
                    throw xml.error("track \(name): 'Year' must be an <integer>\(type == "integer" ? "" : ", not <\(type)>")")
                }
                year = number
            case "Compilation":
                guard type == "true" || type == "false" else {
                    throw xml.error("track \(name): 'Compilation' must be <true/> or <false/>, not <\(type)>")
                }
                compilation = type == "true"
                try xml.skipElement()
            default:
                try xml.skipElement()
            }
        }
    }
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
}
