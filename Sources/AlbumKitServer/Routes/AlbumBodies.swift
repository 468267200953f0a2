import AlbumKit
import NIOCore

/// One album as the API shows it: every field it has (the core's one album shape, as
/// `albumkit show --json` writes it), its position, cover state, `coverUrl` null when it has
/// none, when the cover is stored its SHA-256 (`/api/covers/{sha256}`), and when its last
/// fetch failed, why.
struct AlbumBody: Sendable {
    let position: Int
    let album: Album
    let cover: CoverState
    let coverSha256: String?
    let coverFailure: String?

    init(_ entry: AlbumPage.Entry) {
        position = entry.listed.position
        album = entry.listed.album
        cover = entry.listed.cover
        coverSha256 = entry.coverKey?.sha256
        coverFailure = entry.coverFailure
    }

    func write(to json: inout JSONWriter) {
        var extra: [(key: String, value: AlbumObjectWriter.Extra)] = [
            ("position", .number(position)), ("cover", .text(cover.rawValue)), ("coverSha256", .text(coverSha256)),
            ("coverFailure", .text(coverFailure)),
        ]
        if album.coverUrl == nil { extra.append(("coverUrl", .text(nil))) }
        json.album(album, extra: extra)
    }

    /// The album's JSON object alone.
    var json: [UInt8] {
        var json = JSONWriter(capacity: 0)
        write(to: &json)
        return json.bytes
    }
}

/// `GET /api/albums`: a page of albums, with the library's size and current album, and the
/// labels of the steps undo and redo would walk (null when there is none).
struct AlbumPageBody: Sendable {
    let page: WrittenPage
    let offset: Int
    let limit: Int
    let undo: String?
    let redo: String?

    /// The body, in buffers of at most ``ChunkedJSON/size`` bytes.
    var json: [ByteBuffer] {
        var body = ChunkedJSON()
        body.append(Self.head)
        for (index, album) in page.albums.enumerated() {
            if index > 0 { body.append(Self.comma) }
            body.append(album)
        }
        var json = JSONWriter(capacity: 256)
        json.raw("],\"total\":")
        json.number(page.total)
        json.raw(",\"totalIsExact\":")
        json.raw(page.totalIsExact ? "true" : "false")
        json.raw(",\"offset\":")
        json.number(offset)
        json.raw(",\"limit\":")
        json.number(limit)
        json.raw(",\"current\":")
        json.string(page.current?.rawValue)
        json.raw(",\"currentPosition\":")
        json.number(page.currentPosition)
        json.raw(",\"undo\":")
        json.string(undo)
        json.raw(",\"redo\":")
        json.string(redo)
        json.raw("}")
        body.append(json.bytes)
        return body.buffers
    }

    private static let head = Array(#"{"albums":["#.utf8)
    private static let comma = Array(",".utf8)
}

/// `{"album": …}` (null when there is none, as `current --json` says).
struct SingleAlbumBody: Sendable {
    let album: AlbumBody?

    var json: [UInt8] {
        var json = JSONWriter(capacity: 400)
        json.raw("{\"album\":")
        if let album { album.write(to: &json) } else { json.raw("null") }
        json.raw("}")
        return json.bytes
    }
}

/// `POST /api/albums`: an album as an input file gives it, and where to put it.
struct NewAlbumBody: Decodable {
    let record: AlbumRecord
    let position: Int?

    private enum CodingKeys: String, CodingKey { case position }

    init(from decoder: any Decoder) throws {
        record = try AlbumRecord(from: decoder)
        position = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .position)
    }
}

/// `PATCH /api/albums/{id}`: the fields to change, by name, as `--set` names them: a core or
/// named field (`coverUrl: ""` removes the cover; the year may be a string or an integer;
/// `rating` a number), `tags` a list, `ids` and `fields` objects whose null values remove an
/// entry, `tracks` a list that replaces them; a null value removes a field.
struct AlbumChangesBody: Decodable {
    let patch: AlbumPatch

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        var patch = AlbumPatch()
        // A field the patch refuses is an AlbumKitError, which the decoder passes on as it is
        // (a 422 naming the field).
        for key in container.allKeys {
            let name = key.stringValue
            switch name {
            case "ids", "fields":
                for (entry, value) in try container.decode([String: String?].self, forKey: key) {
                    if let value { try patch.set("\(name).\(entry)", to: value) } else { try patch.unset("\(name).\(entry)") }
                }
            case "tags":
                patch.tags = try container.decodeIfPresent([String].self, forKey: key) ?? []
            case "tracks":
                patch.tracks = try container.decodeIfPresent([Track].self, forKey: key) ?? []
            default:
                if try container.decodeNil(forKey: key) {
                    try patch.unset(name)
                } else if let text = try? container.decode(String.self, forKey: key) {
                    try patch.set(name, to: text)
                } else if let number = try? container.decode(Double.self, forKey: key) {
                    try patch.set(name, to: number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number))
                } else {
                    throw AlbumKitError(.invalidAlbum, "field '\(name)' takes a text or a number")
                }
            }
        }
        self.patch = patch
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// `POST /api/albums/{id}/move`: the 1-based position to move to.
struct MoveBody: Decodable {
    let to: Int
}

/// `PUT /api/current`: the album to make current.
struct CurrentBody: Decodable {
    let id: String
}

/// `POST /api/undo`, `POST /api/redo`: what was taken back or applied again, and the ids of
/// the albums that brought back, changed or moved.
struct HistoryStepBody: Encodable {
    let undone: String?
    let redone: String?
    let albums: [String]
}

/// `POST /api/covers/find`: the albums whose covers to look up.
struct FindCoversBody: Decodable {
    let ids: [String]
}

/// `POST /api/covers/find`: what the round did (as `covers fetch` prints it).
struct CoverRoundBody: Encodable {
    struct Failure: Encodable {
        let id: String
        let reason: String
    }

    let fetched: Int
    let cached: Int
    let failed: [Failure]
    let requests: [String: Int]
    let notes: [String]

    init(_ summary: CoverFetchSummary) {
        fetched = summary.fetched
        cached = summary.cached
        failed = summary.failures.map { Failure(id: $0.album.rawValue, reason: $0.reason) }
        requests = summary.requests
        notes = summary.notes
    }
}

/// `POST /api/import`: what an import did (as `import` prints it).
struct ImportBody: Encodable {
    let added: Int
    let skipped: Int
    let replaced: Int
    let kept: Int
    let coversStored: Int
    let warnings: [String]

    init(_ summary: ImportSummary) {
        added = summary.added
        skipped = summary.skipped
        replaced = summary.replaced
        kept = summary.kept
        coversStored = summary.coversStored
        warnings = summary.warnings
    }
}
