import AlbumKit

/// One album as the API shows it: the fields of `albumkit list --json` (position, id,
/// title, artist, genre, year, coverUrl, cover state), when the cover is stored its SHA-256
/// (`/api/covers/{sha256}`), and when its last fetch failed, why.
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
        json.raw("{\"position\":")
        json.number(position)
        json.raw(",\"id\":")
        json.string(album.id.rawValue)
        json.raw(",\"title\":")
        json.string(album.title)
        json.raw(",\"artist\":")
        json.string(album.artist)
        json.raw(",\"genre\":")
        json.string(album.genre)
        json.raw(",\"year\":")
        json.string(album.year)
        json.raw(",\"coverUrl\":")
        json.string(album.coverUrl)
        json.raw(",\"cover\":")
        json.string(cover.rawValue)
        json.raw(",\"coverSha256\":")
        json.string(coverSha256)
        json.raw(",\"coverFailure\":")
        json.string(coverFailure)
        json.raw("}")
    }
}

/// `GET /api/albums`: a page of albums, with the library's size and current album, and the
/// labels of the steps undo and redo would walk (null when there is none).
struct AlbumPageBody: Sendable {
    let albums: [AlbumBody]
    let total: Int
    let offset: Int
    let limit: Int
    let current: AlbumID?
    let currentPosition: Int?
    let undo: String?
    let redo: String?

    var json: [UInt8] {
        var json = JSONWriter(capacity: 256 + albums.count * 320)
        json.raw("{\"albums\":[")
        for (index, album) in albums.enumerated() {
            if index > 0 { json.raw(",") }
            album.write(to: &json)
        }
        json.raw("],\"total\":")
        json.number(total)
        json.raw(",\"offset\":")
        json.number(offset)
        json.raw(",\"limit\":")
        json.number(limit)
        json.raw(",\"current\":")
        json.string(current?.rawValue)
        json.raw(",\"currentPosition\":")
        json.number(currentPosition)
        json.raw(",\"undo\":")
        json.string(undo)
        json.raw(",\"redo\":")
        json.string(redo)
        json.raw("}")
        return json.bytes
    }
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

/// `PATCH /api/albums/{id}`: the fields to change (`coverUrl: ""` removes the cover); the
/// year may be a string or an integer, as in input files.
struct AlbumChangesBody: Decodable {
    let patch: AlbumPatch

    private enum CodingKeys: String, CodingKey { case title, artist, genre, year, coverUrl }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let year = try (try? container.decodeIfPresent(String.self, forKey: .year))
            ?? container.decodeIfPresent(Int.self, forKey: .year).map(String.init)
        patch = AlbumPatch(
            title: try container.decodeIfPresent(String.self, forKey: .title),
            artist: try container.decodeIfPresent(String.self, forKey: .artist),
            genre: try container.decodeIfPresent(String.self, forKey: .genre), year: year,
            coverUrl: try container.decodeIfPresent(String.self, forKey: .coverUrl))
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
