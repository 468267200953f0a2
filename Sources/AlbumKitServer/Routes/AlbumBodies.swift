import AlbumKit

/// One album as the API shows it: the fields of `albumkit list --json` (position, id,
/// title, artist, genre, year, coverUrl, cover state) and, when the cover is stored, its
/// SHA-256 (`/api/covers/{sha256}`).
struct AlbumBody: Encodable, Sendable {
    let position: Int
    let album: Album
    let cover: CoverState
    let coverSha256: String?

    enum CodingKeys: String, CodingKey { case position, id, title, artist, genre, year, coverUrl, cover, coverSha256 }

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
        try container.encode(coverSha256, forKey: .coverSha256)
    }
}

/// `GET /api/albums`: a page of albums, with the library's size and current album.
struct AlbumPageBody: Encodable, Sendable {
    let albums: [AlbumBody]
    let total: Int
    let offset: Int
    let limit: Int
    let current: AlbumID?
    let currentPosition: Int?

    enum CodingKeys: String, CodingKey { case albums, total, offset, limit, current, currentPosition }

    /// Written out in full: no current album is `null`, not a missing key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(albums, forKey: .albums)
        try container.encode(total, forKey: .total)
        try container.encode(offset, forKey: .offset)
        try container.encode(limit, forKey: .limit)
        try container.encode(current, forKey: .current)
        try container.encode(currentPosition, forKey: .currentPosition)
    }
}

/// `{"album": …}` (null when there is none, as `current --json` says).
struct SingleAlbumBody: Encodable, Sendable {
    let album: AlbumBody?

    enum CodingKeys: String, CodingKey { case album }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(album, forKey: .album)
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

/// `POST /api/undo`, `POST /api/redo`: what was taken back or applied again.
struct HistoryStepBody: Encodable {
    let undone: String?
    let redone: String?
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
