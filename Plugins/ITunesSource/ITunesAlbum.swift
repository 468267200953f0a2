import AlbumKit
import Foundation
import SourceSupport

/// One album as its tracks add up: what SPEC 9 takes from them, kept small (no track list),
/// so a large library costs memory per album, not per track.
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

    /// An album begun by its first track.
    init(first track: ITunesTrack, title: String, artist: String, line: Int) {
        self.title = title
        self.artist = artist
        persistentID = track.persistentID
        self.line = line
        add(track)
    }

    /// Counts a track's genre and year, and notes its folder when none is known yet.
    mutating func add(_ track: ITunesTrack) {
        genres.add(track.genre)
        if (1...9999).contains(track.year) { years.add(String(track.year)) }
        if folder == nil { folder = Self.folder(of: track.location) }
    }

    /// The album record: most common genre and year, id from the first track.
    var record: AlbumRecord {
        AlbumRecord(id: AlbumID("itunes:\(persistentID)"), title: title, artist: artist, genre: genres.mostCommon, year: years.mostCommon)
    }

    /// The folder holding a track at `location`: iTunes writes `file://localhost/…` URLs,
    /// percent-encoded; anything but a `file` URL has none.
    static func folder(of location: String) -> URL? {
        guard let url = URL(string: location), url.isFileURL, !url.path.isEmpty else { return nil }
        return URL(fileURLWithPath: url.path).deletingLastPathComponent()
    }
}
