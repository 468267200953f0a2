import AlbumKit
import Foundation

/// The stable `--json` shapes of SPEC 7: `list --json` is
/// `{"albums":[{position,id,title,artist,genre,year,coverUrl,cover}…],"current":ID|null}`,
/// `show --json` and `current --json` are `{"album":{…}|null}`.
enum AlbumJSON {
    struct Row: Encodable {
        let position: Int
        let album: Album
        let cover: CoverState
        /// For `show` and `current`: the stored cover's hash and where it is.
        var stored: (key: CoverKey, location: String?)?

        enum CodingKeys: String, CodingKey { case position, id, title, artist, genre, year, coverUrl, cover, coverSha256, coverPath }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(position, forKey: .position)
            try container.encode(album.id, forKey: .id)
            try container.encode(album.title, forKey: .title)
            try container.encode(album.artist, forKey: .artist)
            try container.encode(album.genre, forKey: .genre)
            try container.encode(album.year, forKey: .year)
            try container.encode(album.coverUrl, forKey: .coverUrl)
            try container.encode(cover, forKey: .cover)
            if let stored {
                try container.encode(stored.key.sha256, forKey: .coverSha256)
                try container.encode(stored.location, forKey: .coverPath)
            }
        }
    }

    private struct Single: Encodable {
        let album: Row?
        enum CodingKeys: String, CodingKey { case album }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(album, forKey: .album)
        }
    }

    /// `list --json`, its newline included, in runs of bytes laid out side by side: the text
    /// `JSONEncoder` writes for it (keys sorted, slashes as they are), without its generic
    /// encoding, which took two thirds of a 100 000-album listing.
    static func list(_ rows: [ListedAlbum], current: AlbumID?) -> [[UInt8]] {
        let albums = Parallel.joined(rows.count) { range in
            var run: [UInt8] = []
            run.reserveCapacity(range.count * 200)
            for index in range {
                if index > 0 { run.append(UInt8(ascii: ",")) }
                listed(rows[index], to: &run)
            }
            return [run]
        }
        var end = Array(#"],"current":"#.utf8)
        if let current { end.appendJSONString(current.rawValue) } else { end += "null".utf8 }
        end += "}\n".utf8
        return [Array(#"{"albums":["#.utf8)] + albums + [end]
    }

    /// A listed album's object, keys sorted, as ``Row`` encodes it.
    private static func listed(_ row: ListedAlbum, to bytes: inout [UInt8]) {
        bytes += #"{"artist":"#.utf8
        bytes.appendJSONString(row.album.artist)
        bytes += #","cover":"#.utf8
        bytes.appendJSONString(row.cover.rawValue)
        bytes += #","coverUrl":"#.utf8
        if let cover = row.album.cover { cover.withUTF8 { bytes.appendJSONString(utf8: $0) } } else { bytes += "null".utf8 }
        bytes += #","genre":"#.utf8
        bytes.appendJSONString(row.album.genre)
        bytes += #","id":"#.utf8
        bytes.appendJSONString(row.album.id.rawValue)
        bytes += #","position":"#.utf8
        bytes += String(row.position).utf8
        bytes += #","title":"#.utf8
        bytes.appendJSONString(row.album.title)
        bytes += #","year":"#.utf8
        bytes.appendJSONString(row.album.year)
        bytes.append(UInt8(ascii: "}"))
    }

    static func single(_ row: Row?) throws -> String { try text(Single(album: row)) }

    private static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension Library {
    /// One album with its position, cover state and stored cover, for `show` and `current`.
    func detailRow(_ reference: AlbumReference) async throws -> AlbumJSON.Row {
        let listed = try await resolve(reference)
        // Judging the cover asked the store already.
        let stored = listed.cover == .stored ? coverKey(of: listed.album).map { ($0, coverLocation($0)) } : nil
        return AlbumJSON.Row(position: listed.position, album: listed.album, cover: listed.cover, stored: stored)
    }
}
