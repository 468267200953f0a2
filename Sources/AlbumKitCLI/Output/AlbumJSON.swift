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

    private struct List: Encodable {
        let albums: [Row]
        let current: AlbumID?
        enum CodingKeys: String, CodingKey { case albums, current }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(albums, forKey: .albums)
            try container.encode(current, forKey: .current)
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

    static func list(_ rows: [Row], current: AlbumID?) throws -> String { try text(List(albums: rows, current: current)) }
    static func single(_ row: Row?) throws -> String { try text(Single(album: row)) }

    private static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension AlbumJSON.Row {
    /// The row of a listed album.
    init(_ listed: ListedAlbum) {
        self.init(position: listed.position, album: listed.album, cover: listed.cover)
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
