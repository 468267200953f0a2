@testable import AlbumKitCLI
import AlbumKit
import Foundation
import Testing

/// `list --json` as bytes is the text `JSONEncoder` writes for SPEC 7's shape.
@Suite struct ListJSONTests {
    /// SPEC 7's list, as `JSONEncoder` writes it (keys sorted, slashes as they are): the oracle.
    private struct EncodedList: Encodable {
        struct Row: Encodable {
            let position: Int
            let id: String
            let title: String
            let artist: String
            let genre: String
            let year: String
            let coverUrl: String?
            let cover: String

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(position, forKey: .position)
                try container.encode(id, forKey: .id)
                try container.encode(title, forKey: .title)
                try container.encode(artist, forKey: .artist)
                try container.encode(genre, forKey: .genre)
                try container.encode(year, forKey: .year)
                try container.encode(coverUrl, forKey: .coverUrl)
                try container.encode(cover, forKey: .cover)
            }

            private enum CodingKeys: String, CodingKey { case position, id, title, artist, genre, year, coverUrl, cover }
        }

        let albums: [Row]
        let current: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(albums, forKey: .albums)
            try container.encode(current, forKey: .current)
        }

        private enum CodingKeys: String, CodingKey { case albums, current }
    }

    private static func encoded(_ rows: [ListedAlbum], current: AlbumID?) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let list = EncodedList(albums: rows.map {
            .init(position: $0.position, id: $0.album.id.rawValue, title: $0.album.title, artist: $0.album.artist, genre: $0.album.genre,
                  year: $0.album.year, coverUrl: $0.album.coverUrl, cover: $0.cover.rawValue)
        }, current: current?.rawValue)
        return String(decoding: try encoder.encode(list), as: UTF8.self) + "\n"
    }

    private static func written(_ rows: [ListedAlbum], current: AlbumID?) -> String {
        String(decoding: AlbumJSON.list(rows, current: current).joined(), as: UTF8.self)
    }

    /// Quotes, backslashes, tabs, slashes, accents, emoji and a joiner, no cover and each cover
    /// state, with and without a current album, and none at all.
    @Test func writesWhatJSONEncoderWrites() throws {
        let states: [CoverState] = [.stored, .missing, .failed, .none]
        let rows = try (0..<12).map { index in
            ListedAlbum(
                position: index + 1,
                album: try Album(
                    id: AlbumID("id-\(index)/\"q\""), title: "Say \"hi\"\t\\ \(index) / é", artist: "Sigur Rós 👩‍👩‍👧 \u{2028}",
                    genre: index % 2 == 0 ? "" : "Post-rock", year: index % 3 == 0 ? "" : "19\(index + 10)",
                    coverUrl: index % 4 == 0 ? nil : "covers/\(index)ab.jpg"),
                cover: states[index % 4])
        }
        for current in [nil, rows[3].album.id] {
            #expect(Self.written(rows, current: current) == (try Self.encoded(rows, current: current)))
        }
        #expect(Self.written([], current: nil) == (try Self.encoded([], current: nil)))
    }

    /// A list long enough to be written on several cores keeps its order and its commas.
    @Test func aLongListIsWholeAndInOrder() throws {
        let rows = try (0..<25_000).map { index in
            ListedAlbum(position: index + 1, album: try Album(id: AlbumID("a\(index)"), title: "T \(index)", artist: "A"), cover: .none)
        }
        #expect(Self.written(rows, current: rows.last!.album.id) == (try Self.encoded(rows, current: rows.last!.album.id)))
    }
}
