import AlbumKit
import CTagShim
import Foundation
import SourceSupport

/// What one track's tags and audio properties say, as far as the album mapping of SPEC 9
/// needs it.
struct TrackTags: Sendable, Equatable {
    var album: String?
    var albumArtist: String?
    var artist: String?
    var genre: String?
    /// The date tag as written ("1999", "1999-05-02").
    var date: String?
    var musicBrainzAlbumID: String?
    var title: String?
    /// The track number tag as written ("3", "3/12").
    var trackNumber: String?
    /// The disc number tag as written ("1", "1/2").
    var discNumber: String?
    var label: String?
    var catalogNumber: String?
    var barcode: String?
    var country: String?
    /// The medium ("CD").
    var media: String?
    var musicBrainzReleaseGroupID: String?
    /// The recording's MusicBrainz id.
    var musicBrainzTrackID: String?
    /// The audio's length in seconds, from TagLib's audio properties.
    var seconds: Double?
    /// The embedded picture used as the cover: the front cover, else the first picture.
    var cover: Data?
    /// How many pictures the file embeds, of every type, `cover` included.
    var pictures = 0
    /// The genres after the first, when the genre tag holds several.
    var moreGenres: [String] = []
    /// Every other tag, by its name in the track's `fields` (`audio.comment`,
    /// `audio.replaygainTrackGain`), its values joined by `; `; and the values after the first
    /// of a mapped tag (a second artist in `audio.artist`).
    var otherFields: [String: String] = [:]
    /// The tags not kept, by name: longer than a field may be, or not text (pictures aside).
    var droppedTags: [String] = []

    /// The most UTF-8 bytes a field may have (SPEC 1: 64 KiB); a longer tag is refused
    /// rather than cut.
    static let maxFieldBytes = 64 * 1024

    /// The year of the date tag: its leading digits when there are one to four of them
    /// ("1999-05-02" → "1999"), the first four of a bare `YYYYMMDD`, else "".
    var year: String {
        guard let date else { return "" }
        let digits = date.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        switch digits.count {
        case 1...4: return String(digits)
        case 8: return String(digits.prefix(4))
        default: return ""
        }
    }

    /// Reads the tags in `tagBytes` through TagLib (the CTagShim target); errors name `subject`.
    init(reading tagBytes: TagBytes, coverLimit: Int64, subject: String) throws(AlbumKitError) {
        var handle: OpaquePointer?
        var detail = 0
        let status = tagBytes.bytes.withUnsafeBytes { bytes in
            tagBytes.tail.withUnsafeBytes { tail in
                ak_tags_read(
                    bytes.baseAddress, bytes.count, tail.baseAddress, tail.count, tagBytes.fileLength, tagBytes.format.shimFormat,
                    Self.maxFieldBytes, Int(clamping: coverLimit), &handle, &detail)
            }
        }
        guard status == AK_TAGS_OK, let handle else {
            throw Self.failure(status, detail: detail, format: tagBytes.format, coverLimit: coverLimit, subject: subject)
        }
        defer { ak_tags_free(handle) }
        func field(_ field: ak_tag_field) -> String? {
            var length = 0
            guard let text = ak_tags_field(handle, field, &length) else { return nil }
            let value = String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
            return value.isEmpty ? nil : value
        }
        album = field(AK_FIELD_ALBUM)
        albumArtist = field(AK_FIELD_ALBUM_ARTIST)
        artist = field(AK_FIELD_ARTIST)
        genre = field(AK_FIELD_GENRE)
        date = field(AK_FIELD_DATE)
        musicBrainzAlbumID = field(AK_FIELD_MUSICBRAINZ_ALBUM_ID)
        title = field(AK_FIELD_TITLE)
        trackNumber = field(AK_FIELD_TRACK_NUMBER)
        discNumber = field(AK_FIELD_DISC_NUMBER)
        label = field(AK_FIELD_LABEL)
        catalogNumber = field(AK_FIELD_CATALOG_NUMBER)
        barcode = field(AK_FIELD_BARCODE)
        country = field(AK_FIELD_COUNTRY)
        media = field(AK_FIELD_MEDIA)
        musicBrainzReleaseGroupID = field(AK_FIELD_MUSICBRAINZ_RELEASE_GROUP_ID)
        musicBrainzTrackID = field(AK_FIELD_MUSICBRAINZ_TRACK_ID)
        for index in 0..<ak_tags_other_count(handle) {
            var keyLength = 0
            var value: UnsafePointer<CChar>?
            var valueLength = 0
            guard let key = ak_tags_other(handle, index, &keyLength, &value, &valueLength), let value else { continue }
            let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keyLength), as: UTF8.self)
            let text = String(decoding: UnsafeRawBufferPointer(start: value, count: valueLength), as: UTF8.self)
            if name == "GENRE" {
                moreGenres += text.components(separatedBy: "; ")
            } else {
                otherFields["audio.\(CSVRow.fieldName(of: name))"] = text
            }
        }
        for index in 0..<ak_tags_dropped_count(handle) {
            var length = 0
            guard let name = ak_tags_dropped(handle, index, &length) else { continue }
            droppedTags.append(String(decoding: UnsafeRawBufferPointer(start: name, count: length), as: UTF8.self))
        }
        let seconds = ak_tags_seconds(handle)
        self.seconds = seconds >= 0 ? seconds : nil
        var length = 0
        cover = ak_tags_cover(handle, &length).map { Data(bytes: $0, count: length) }
        pictures = ak_tags_picture_count(handle)
    }

    /// The error for a shim status other than success.
    private static func failure(
        _ status: ak_tags_status, detail: Int, format: AudioFormat, coverLimit: Int64, subject: String
    ) -> AlbumKitError {
        switch status {
        case AK_TAGS_NOT_AUDIO:
            return AlbumKitError(.unreadableInput, "\(subject): damaged, or not \(format.displayName) audio: TagLib finds neither tags nor audio in it")
        case AK_TAGS_FIELD_TOO_LONG:
            let names = [
                "album", "album artist", "artist", "genre", "date", "MusicBrainz album id", "title", "track number", "disc number", "label",
                "catalog number", "barcode", "release country", "media", "MusicBrainz release group id", "MusicBrainz track id",
            ]
            let name = names.indices.contains(detail) ? names[detail] : "a"
            return AlbumKitError(.limitExceeded, "\(subject): its \(name) tag is longer than the \(maxFieldBytes) bytes a field may have")
        case AK_TAGS_COVER_TOO_LARGE:
            return AlbumKitError(.limitExceeded, "\(subject): its embedded front cover is \(detail) bytes, over limits.coverBytes (\(coverLimit))")
        case AK_TAGS_OUT_OF_MEMORY:
            return AlbumKitError(.limitExceeded, "\(subject): memory ran out while reading its tags")
        default:
            return AlbumKitError(.unreadableInput, "\(subject): TagLib could not read its tags (status \(status.rawValue))")
        }
    }
}
