import AlbumKit
import Foundation
import SourceSupport

/// What the tracks of one album have said so far: a few tallies, and each track's title,
/// numbers, length and ids — never their bytes.
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
    private var dates = Tally()
    private var musicBrainzIDs = Tally()
    /// The album-wide tags that become named fields and ids, each by what its tracks say most.
    private var named: [AlbumField: Tally] = [:]
    private var releaseGroups = Tally()
    /// The tracks, in the order their files came, each with its artist tag as written: the
    /// first ``AlbumLimits/tracks`` (SPEC 1's most).
    private var tracks: [Track] = []
    /// How many tracks came past those, counted in the album but not kept.
    private(set) var tracksPastLimit = 0
    /// The tags of its tracks not kept (not text, longer than a field may be, past the fields a
    /// track may have), by name.
    private(set) var droppedTags = Tally()
    /// The embedded front picture of the first track that has one (`covers/<sha256>.<ext>`).
    var embeddedCover: String?
    /// What tells that picture's bytes from another track's, which are not kept.
    var embeddedCoverIdentity: CoverIdentity?

    init(key: Key, label: String) {
        self.key = key
        self.label = label
    }

    /// Counts one track's tags in; `file` is its file's name.
    mutating func add(_ tags: TrackTags, file: String) {
        let artist = tags.artist?.trimmedTag
        if let artist {
            if firstArtist == nil { firstArtist = artist } else if artist != firstArtist { artistsDiffer = true }
        }
        for genre in [tags.genre].compactMap({ $0 }) + tags.moreGenres {
            if let genre = genre.trimmedTag { genres.add(genre) }
        }
        if !tags.year.isEmpty { years.add(tags.year) }
        if let date = tags.date?.trimmedTag { dates.add(date) }
        if let id = tags.musicBrainzAlbumID?.trimmedTag { musicBrainzIDs.add(id) }
        if let id = tags.musicBrainzReleaseGroupID?.trimmedTag { releaseGroups.add(id) }
        for (field, value) in [(AlbumField.label, tags.label), (.catalogNumber, tags.catalogNumber), (.barcode, tags.barcode), (.country, tags.country), (.format, tags.media)] {
            if let value = value?.trimmedTag { named[field, default: Tally()].add(value) }
        }
        guard tracks.count < AlbumLimits.tracks else {
            tracksPastLimit += 1
            return
        }
        let name = (file as NSString).deletingPathExtension
        var fields = ["audio.file": file]
        for (field, value) in tags.otherFields.sorted(by: { $0.key < $1.key }) {
            guard fields.count < AlbumLimits.fields else {
                droppedTags.add(String(field.dropFirst("audio.".count)))
                continue
            }
            fields[field] = value
        }
        for tag in tags.droppedTags { droppedTags.add(tag) }
        tracks.append(Track(
            title: tags.title?.trimmedTag ?? name, number: Self.leadingNumber(tags.trackNumber), disc: Self.leadingNumber(tags.discNumber),
            artist: artist, seconds: tags.seconds, ids: tags.musicBrainzTrackID?.trimmedTag.map { ["musicbrainz": $0] } ?? [:],
            fields: fields))
    }

    /// The album (SPEC 9): title = album tag; artist = album-artist tag, else the tracks'
    /// artist tag when they agree, else "Various Artists"; genre and year the most common
    /// among the tracks (the other genres in `tags`), `released` the most common full date;
    /// label, catalog number, barcode, country and format (media) the most common of their tags;
    /// id `mb:<MusicBrainz album id>` when set, `ids.musicbrainz` and `ids.musicbrainzGroup`;
    /// one track per file (its artist only when not the album's; its file's name in
    /// `audio.file`), in disc and track number order; the embedded front cover, else `folderCover` (the folder's
    /// `cover.jpg`/`folder.jpg`).
    func record(folderCover: String?) -> AlbumRecord {
        let artist = !key.albumArtist.isEmpty ? key.albumArtist : (artistsDiffer ? "Various Artists" : firstArtist ?? "")
        let musicBrainzID = musicBrainzIDs.mostCommon.nonEmpty
        let genre = genres.mostCommon
        var record = AlbumRecord(
            id: musicBrainzID.map { AlbumID(rawValue: "mb:\($0)") },
            title: key.album, artist: artist, genre: genre, year: years.mostCommon, coverUrl: embeddedCover ?? folderCover)
        record.tags = genres.seen.map(\.value).filter { $0 != genre }
        record[.released] = dates.mostCommon.nonEmpty.flatMap(Self.releaseDate)
        for (field, values) in named { record[field] = values.mostCommon.nonEmpty }
        record.ids["musicbrainz"] = musicBrainzID
        record.ids["musicbrainzGroup"] = releaseGroups.mostCommon.nonEmpty
        // In disc and track order: an archive gives its files in any order.
        record.tracks = tracks.enumerated().sorted { ($0.element.disc ?? 0, $0.element.number ?? 0, $0.offset) < ($1.element.disc ?? 0, $1.element.number ?? 0, $1.offset) }
            .map { _, track in
                var track = track
                if track.artist == artist { track.artist = nil }
                return track
            }
        return record
    }

    /// A date tag as a release date: `YYYY-MM` or `YYYY-MM-DD`, the time of an M4A's
    /// `2003-02-03T00:00:00Z` left off; nil for a bare year or anything else.
    private static func releaseDate(_ date: String) -> String? {
        let day = date.prefix { $0 != "T" && $0 != " " }
        let parts = day.split(separator: "-", omittingEmptySubsequences: false)
        guard [2, 3].contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        return String(day)
    }

    /// The number a track or disc tag starts with (`3/12` → 3); nil for none or 0.
    private static func leadingNumber(_ tag: String?) -> Int? {
        guard let digits = tag?.trimmingCharacters(in: .whitespaces).prefix(while: { $0.isASCII && $0.isNumber }), digits.count <= 5,
            let number = Int(digits), number > 0
        else { return nil }
        return number
    }
}

/// What tells one picture's bytes from another's without keeping them: their count and their
/// hash (a track's cover is compared with its album's; hashing is far cheaper than the SHA-256
/// a stored cover is named by, and a collision of both is beyond likely).
struct CoverIdentity: Equatable {
    private let count: Int
    private let hash: Int

    init(_ bytes: Data) {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        count = bytes.count
        hash = hasher.finalize()
    }
}

extension String {
    /// The tag value without surrounding white space; nil when nothing is left.
    var trimmedTag: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

private extension String {
    /// The value, or nil when empty: a tally's "nothing counted".
    var nonEmpty: String? { isEmpty ? nil : self }
}
