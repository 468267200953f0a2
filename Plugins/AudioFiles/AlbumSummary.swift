import AlbumKit
import Foundation
import SourceSupport

/// What the tracks of one album have said so far — a few strings and counters however many
/// tracks there are; never their bytes.
struct AlbumSummary {
    /// What groups tracks into this album (SPEC 9): the folder, the album-artist tag (""
    /// when absent) and the album tag.
    struct Key: Hashable {
        let folder: String
        let albumArtist: String
        let album: String
    }

    let key: Key
    /// How messages name the album: where its first track is.
    let label: String
    private var firstArtist: String?
    private var artistsDiffer = false
    private var genres = Tally()
    private var years = Tally()
    private var musicBrainzIDs = Tally()
    /// The embedded front picture of the first track that has one (`covers/<sha256>.<ext>`).
    var embeddedCover: String?
    private(set) var trackCount = 0

    init(key: Key, label: String) {
        self.key = key
        self.label = label
    }

    /// Counts one track's tags in.
    mutating func add(_ tags: TrackTags) {
        trackCount += 1
        if let artist = tags.artist?.trimmedTag {
            if firstArtist == nil { firstArtist = artist } else if artist != firstArtist { artistsDiffer = true }
        }
        if let genre = tags.genre?.trimmedTag { genres.add(genre) }
        if !tags.year.isEmpty { years.add(tags.year) }
        if let id = tags.musicBrainzAlbumID?.trimmedTag { musicBrainzIDs.add(id) }
    }

    /// The album (SPEC 9): title = album tag; artist = album-artist tag, else the tracks'
    /// artist tag when they agree, else "Various Artists"; genre and year the most common
    /// among the tracks; id `mb:<MusicBrainz album id>` when set; the embedded front cover,
    /// else `folderCover` (the folder's `cover.jpg`/`folder.jpg`).
    func record(folderCover: String?) -> AlbumRecord {
        let artist = !key.albumArtist.isEmpty ? key.albumArtist : (artistsDiffer ? "Various Artists" : firstArtist ?? "")
        let musicBrainzID = musicBrainzIDs.mostCommon
        return AlbumRecord(
            id: musicBrainzID.isEmpty ? nil : AlbumID(rawValue: "mb:\(musicBrainzID)"),
            title: key.album, artist: artist, genre: genres.mostCommon, year: years.mostCommon,
            coverUrl: embeddedCover ?? folderCover)
    }
}

extension String {
    /// The tag value without surrounding white space; nil when nothing is left.
    var trimmedTag: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
