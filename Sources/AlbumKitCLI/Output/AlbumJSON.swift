import AlbumKit
import Foundation

/// The stable `--json` shapes of SPEC 7: `list --json` is
/// `{"albums":[{position,id,title,artist,genre,year,coverUrl,cover,…every other field}…],"current":ID|null}`,
/// `show --json` and `current --json` are `{"album":{…}|null}`. The album objects are the
/// core's one shape (``AlbumObjectWriter``), keys sorted, `coverUrl` null when there is none.
enum AlbumJSON {
    struct Row {
        let position: Int
        let album: Album
        let cover: CoverState
        /// For `show` and `current`: the stored cover's hash and where it is.
        var stored: (key: CoverKey, location: String?)?

        /// The listing's members beside the album's fields.
        var extra: [(key: String, value: AlbumObjectWriter.Extra)] {
            var extra: [(key: String, value: AlbumObjectWriter.Extra)] = [("position", .number(position)), ("cover", .text(cover.rawValue))]
            if album.coverUrl == nil { extra.append(("coverUrl", .text(nil))) }
            if let stored { extra += [("coverSha256", .text(stored.key.sha256)), ("coverPath", .text(stored.location))] }
            return extra
        }
    }

    /// `list --json`, its newline included, in runs of bytes laid out side by side.
    static func list(_ rows: [ListedAlbum], current: AlbumID?) -> [[UInt8]] {
        let albums = Parallel.joined(rows.count) { range in
            var writer = AlbumObjectWriter()
            for index in range {
                if index > 0 { writer.raw(",") }
                let row = rows[index]
                writer.album(row.album, extra: Row(position: row.position, album: row.album, cover: row.cover).extra)
            }
            return [writer.take()]
        }
        var end = AlbumObjectWriter()
        end.raw(#"],"current":"#)
        end.string(current?.rawValue)
        end.raw("}\n")
        return [Array(#"{"albums":["#.utf8)] + albums + [end.take()]
    }

    static func single(_ row: Row?) throws -> String {
        var writer = AlbumObjectWriter()
        writer.raw(#"{"album":"#)
        if let row { writer.album(row.album, extra: row.extra) } else { writer.raw("null") }
        writer.raw("}")
        return String(decoding: writer.take(), as: UTF8.self)
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
