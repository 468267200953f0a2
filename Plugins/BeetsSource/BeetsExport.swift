import AlbumKit
import Foundation

/// One object of `beet export` JSON: an album (`beet export -a`) or a track (`beet export`),
/// every key with its value as text. beets writes its values formatted (`"year": "0000"`,
/// `"length": "3:27"`, `"added": "2024-05-01 12:00:00"`); numbers and booleans are accepted too.
struct BeetsExportObject: Decodable {
    /// Every key whose value is text, a number or a boolean, as written.
    var attributes: [String: String] = [:]
    /// Keys whose value is an array or an object, which no attribute of beets's holds: not kept,
    /// counted in the summary.
    var droppedKeys: [String] = []

    /// The keys the album is made of: a value of another kind there is an error naming the key.
    private static let required: Set<String> = ["album", "albumartist", "artist", "title", "year", "genre", "genres", "mb_albumid", "artpath", "album_id"]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys where try !container.decodeNil(forKey: key) {
            if let text = try? container.decode(String.self, forKey: key) {
                attributes[key.stringValue] = text
            } else if let number = try? container.decode(Int64.self, forKey: key) {
                attributes[key.stringValue] = String(number)
            } else if let number = try? container.decode(Double.self, forKey: key) {
                attributes[key.stringValue] = String(number)
            } else if let flag = try? container.decode(Bool.self, forKey: key) {
                attributes[key.stringValue] = flag ? "True" : "False"
            } else if Self.required.contains(key.stringValue) {
                _ = try container.decode(String.self, forKey: key)
            } else {
                droppedKeys.append(key.stringValue)
            }
        }
    }

    /// A track (it has a `title`) rather than an album.
    var isTrack: Bool { attributes["title"] != nil }

    /// The attributes as the database holds them, for ``BeetsAlbum``: beets's "unset" values
    /// (empty, `0`, `00`, `0000`, `0.0`, `0:00`, `False`) left out, `added` (local time, as beets
    /// formats it) as seconds since 1970, `length` (`m:ss`, `h:mm:ss`) as seconds.
    var unformatted: [String: String] {
        var values: [String: String] = [:]
        for (key, value) in attributes where !value.isEmpty && (Self.names.contains(key) || !Self.isUnset(value)) {
            switch key {
            case "added": values[key] = Self.seconds(sinceEpoch: value) ?? value
            case "length": values[key] = Self.seconds(ofDuration: value) ?? value
            default: values[key] = value
            }
        }
        return values
    }

    /// The names beets keeps as text, whatever they read: an album called `0` is one.
    private static let names: Set<String> = ["album", "albumartist", "artist", "title"]

    private static func isUnset(_ value: String) -> Bool {
        value == "False" || (value.contains("0") && value.allSatisfy { $0 == "0" || $0 == "." || $0 == ":" })
    }

    /// `2024-05-01 12:00:00` in this machine's time zone (where beets formats it) as seconds.
    private static func seconds(sinceEpoch text: String) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text).map { String(Int64($0.timeIntervalSince1970)) }
    }

    /// `3:27` or `1:02:03` as seconds.
    private static func seconds(ofDuration text: String) -> String? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
        return String(numbers.reduce(0) { $0 * 60 + $1 })
    }
}

/// Recognising `beet export` output, and what its tracks' keys are.
enum BeetsExport {
    /// The attributes beets keeps for each file and not for an album: the keys `beet export`
    /// writes for a track and not for an album (beets 2.14), older beets's singular names, and
    /// `path`: in a track export they stay the tracks'.
    static let itemFields: Set<String> = [
        "acoustid_fingerprint", "acoustid_id", "album_id", "arranger", "arrangers", "arrangers_ids", "artist", "artist_credit", "artist_sort",
        "artists", "artists_credit", "artists_ids", "artists_sort", "bitdepth", "bitrate", "bitrate_mode", "bpm", "channels", "comments",
        "composer", "composer_sort", "composers", "composers_ids", "disc", "disctitle", "encoder", "encoder_info", "encoder_settings",
        "filesize", "format", "grouping", "has_cover_art", "initial_key", "isrc", "length", "lyricist", "lyricists", "lyricists_ids", "lyrics",
        "mb_artistid", "mb_artistids", "mb_releasetrackid", "mb_trackid", "mb_workid", "media", "mtime", "path", "r128_track_gain", "remixer",
        "remixers", "remixers_ids", "rg_track_gain", "rg_track_peak", "samplerate", "singleton", "subtitle", "title", "track",
        "trackdisambig", "tracktotal", "work", "work_disambig",
    ]

    /// The attributes beets keeps on an album and on each of its items (beets 2.14's
    /// `Album.item_keys`, with older beets's `genre`): in a track export the album takes each as
    /// most of its tracks have it, since a track edited alone may differ.
    static let albumItemFields: Set<String> = [
        "added", "album", "albumartist", "albumartist_credit", "albumartist_sort", "albumartists", "albumartists_credit", "albumartists_sort",
        "albumdisambig", "albumstatus", "albumtype", "albumtypes", "asin", "barcode", "catalognum", "comp", "country", "day", "discogs_albumid",
        "discogs_artistid", "discogs_labelid", "disctotal", "genre", "genres", "label", "language", "mb_albumartistid", "mb_albumartistids",
        "mb_albumid", "mb_releasegroupid", "month", "original_day", "original_month", "original_year", "r128_album_gain",
        "release_group_title", "releasegroupdisambig", "rg_album_gain", "rg_album_peak", "script", "style", "year",
    ]

    /// JSON (an array, or JSON lines) whose first object has beets's `albumartist` key: that
    /// key is beets's own; AlbumKit's lists say `artist`.
    static func looksLikeExport(_ prefix: Data) -> Bool {
        guard let first = prefix.first(where: { !XMLSpace.contains($0) }), first == UInt8(ascii: "[") || first == UInt8(ascii: "{") else {
            return false
        }
        return String(decoding: prefix, as: UTF8.self).contains("\"albumartist\":")
    }

    private static let XMLSpace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
}
