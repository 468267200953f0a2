import AlbumKit
import Foundation
import SourceSupport

/// One album as its tracks add up: what SPEC 9 takes from them, and its tracks, packed.
struct ITunesAlbum {
    let title: String
    let artist: String
    /// The `Persistent ID` of the first of its tracks in the file.
    let persistentID: String
    /// The 1-based line of the first track, for messages.
    let line: Int
    /// The folder of the first track that has a `file://` location.
    private(set) var folder: URL?
    private var genres = Tally()
    private var years = Tally()
    /// The first `Album Rating` set (0–100) among its tracks.
    private var albumRating: Int?
    /// The earliest `Date Added` among its tracks.
    private var earliestAdded: String?
    /// The tracks, packed (``ITunesTrack/pack(albumArtist:names:into:)``).
    private var tracks = ""

    /// An album begun by its first track.
    init(first track: ITunesTrack, title: String, artist: String, line: Int, names: inout ITunesFieldNames) {
        self.title = title
        self.artist = artist
        persistentID = track.persistentID
        self.line = line
        add(track, names: &names)
    }

    /// Adds a track: counts its genre and year, notes its folder when none is known yet; its
    /// keys' names go to `names`.
    mutating func add(_ track: ITunesTrack, names: inout ITunesFieldNames) {
        genres.add(track.genre)
        if (1...9999).contains(track.year) { years.add(String(track.year)) }
        if folder == nil { folder = Self.folder(of: track.location) }
        if albumRating == nil, ITunesTrack.rating(track.albumRating) != nil { albumRating = track.albumRating }
        // RFC 3339 moments in UTC, as iTunes writes them, sort as text.
        if !track.dateAdded.isEmpty, earliestAdded.map({ track.dateAdded < $0 }) ?? true { earliestAdded = track.dateAdded }
        track.pack(albumArtist: artist, names: &names, into: &tracks)
    }

    /// The album record (SPEC 9): most common genre and year, `rating` from `Album Rating`
    /// (÷ 20), `added` the earliest `Date Added`, the tracks, id and `ids.itunes` from the first
    /// track. A track's genre, year and album rating stay in its `fields` only where they differ
    /// from the album's. `names` are those the tracks were packed with.
    func record(names: ITunesFieldNames) -> AlbumRecord {
        let genre = genres.mostCommon
        let year = years.mostCommon
        var record = AlbumRecord(id: AlbumID("itunes:\(persistentID)"), title: title, artist: artist, genre: genre, year: year)
        record.rating = ITunesTrack.rating(albumRating)
        record[.added] = earliestAdded.flatMap(Self.timestamp)
        record.ids["itunes"] = persistentID
        record.tracks = ITunesTrack.unpack(tracks, names: names).map { track in
            var track = track
            if track.fields["itunes.genre"] == genre { track.fields["itunes.genre"] = nil }
            if track.fields["itunes.year"] == year { track.fields["itunes.year"] = nil }
            if let albumRating, track.fields["itunes.albumRating"] == String(albumRating) { track.fields["itunes.albumRating"] = nil }
            return track
        }
        return record
    }

    /// A `Date Added` as RFC 3339 in UTC (`2015-11-24T11:23:47Z`), as iTunes writes it; nil
    /// for anything else (the track keeps it in `itunes.dateAdded`).
    static func timestamp(_ text: String) -> String? {
        guard text.count == 20, text.hasSuffix("Z"), ISO8601DateFormatter().date(from: text) != nil else { return nil }
        return text
    }

    /// The folder holding a track at `location`: iTunes writes `file://localhost/…` URLs,
    /// percent-encoded; anything but a `file` URL has none.
    static func folder(of location: String) -> URL? {
        guard let url = URL(string: location), url.isFileURL, !url.path.isEmpty else { return nil }
        return URL(fileURLWithPath: url.path).deletingLastPathComponent()
    }
}
