import AlbumKit
import Foundation

/// One object of `beet export` JSON: an album (`beet export -a`) or a track (`beet export`),
/// with the keys AlbumKit takes. beets writes every value as text; numbers are accepted too.
struct BeetsExportObject: Decodable {
    var fields = BeetsAlbum()
    /// A track's album (`album_id`, with `-l`), or nil for an album object.
    var albumID: String?
    /// Whether the object is a track (it has a `title`) rather than an album.
    var isTrack = false
    /// A track's own artist, the album artist when `albumartist` is empty.
    var artist = ""

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func text(_ name: String) throws -> String? {
            let key = Key(stringValue: name)
            guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
            if let number = try? container.decode(Int64.self, forKey: key) { return String(number) }
            return try container.decode(String.self, forKey: key)
        }
        fields.album = try text("album") ?? ""
        fields.albumArtist = try text("albumartist") ?? ""
        fields.genre = BeetsAlbum.firstGenre(genre: try text("genre"), genres: try text("genres"), separator: "; ")
        fields.year = try text("year") ?? ""
        fields.musicBrainzID = try text("mb_albumid") ?? ""
        fields.artPath = Data((try text("artpath") ?? "").utf8)
        albumID = try text("album_id")
        isTrack = container.contains(Key(stringValue: "title"))
        artist = try text("artist") ?? ""
    }
}

/// Recognising `beet export` output.
enum BeetsExport {
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
