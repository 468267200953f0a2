@testable import AlbumKitCLI
import AlbumKit
import Foundation
import Testing

/// `list --json` as bytes is the text `JSONEncoder` writes for SPEC 7's shape.
@Suite struct ListJSONTests {
    /// A JSON value `JSONEncoder` writes (objects as dictionaries, their keys sorted by
    /// `.sortedKeys`): the oracle.
    private indirect enum Value: Encodable {
        case string(String?), number(Int), objects([[String: Value]])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text?): try container.encode(text)
            case .string(nil): try container.encodeNil()
            case .number(let number): try container.encode(number)
            case .objects(let objects): try container.encode(objects)
            }
        }
    }

    /// SPEC 7's list, as `JSONEncoder` writes it (keys sorted, slashes as they are).
    private static func encoded(_ rows: [ListedAlbum], current: AlbumID?) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let albums = rows.map { row -> [String: Value] in
            ["position": .number(row.position), "id": .string(row.album.id.rawValue), "title": .string(row.album.title),
             "artist": .string(row.album.artist), "genre": .string(row.album.genre), "year": .string(row.album.year),
             "coverUrl": .string(row.album.coverUrl), "cover": .string(row.cover.rawValue)]
        }
        let list: [String: Value] = ["albums": .objects(albums), "current": .string(current?.rawValue)]
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
