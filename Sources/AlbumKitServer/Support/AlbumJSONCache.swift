import AlbumKit
import Synchronization

/// A page of albums as the API writes it: each album's JSON object, and what the page says of
/// the library (its size, the current album and its place).
struct WrittenPage: Sendable {
    /// Each album's JSON object (``AlbumBody``), in page order.
    let albums: [[UInt8]]
    /// How many albums match (the library's size without a query).
    let total: Int
    /// The current album, if any.
    let current: AlbumID?
    /// The current album's 1-based library position, when it is among those that match.
    let currentPosition: Int?

    /// `page` written out.
    init(_ page: AlbumPage) {
        self.init(albums: page.albums.map { AlbumBody($0).json }, total: page.total, current: page.current, currentPosition: page.currentPosition)
    }

    init(albums: [[UInt8]], total: Int, current: AlbumID?, currentPosition: Int?) {
        self.albums = albums
        self.total = total
        self.current = current
        self.currentPosition = currentPosition
    }
}

/// The JSON of the albums pages showed, kept for one revision of the library
/// (``Library/revision()``), so each album of a page is read and written once per revision
/// rather than once per request: reading an album's details and writing its JSON took half of
/// a `GET /api/albums?limit=100` of collectors' albums (BENCHMARKS.md, issue 37). Everything a
/// page without a query says is fixed by the revision: the albums at each position, the
/// library's size, and the covers' states (a cover's bytes are stored before the save that
/// names them, and only covers no album names are ever removed). The first page read at a
/// newer revision drops what was kept. At most ``capacity`` albums are kept; a page that would
/// pass it starts afresh, so memory stays bounded whatever the library's size.
final class AlbumJSONCache: Sendable {
    /// The most albums kept (about 1.4 KB each for an album with a dozen tracks).
    static let capacity = 4096

    private struct Kept {
        var revision: Int64
        var total: Int
        var current: AlbumID?
        var currentPosition: Int?
        /// By 1-based library position.
        var albums: [Int: [UInt8]] = [:]
    }

    private let kept = Mutex<Kept?>(nil)

    /// The page of `limit` albums from the 0-based `offset` at `revision` with `current` as the
    /// current album, when every album of it is kept; nil otherwise.
    func page(at revision: Int64, offset: Int, limit: Int, current: AlbumID?) -> WrittenPage? {
        kept.withLock { kept in
            guard let kept, kept.revision == revision, kept.current == current else { return nil }
            let positions = (offset + 1)..<(min(kept.total, offset + limit) + 1)
            var albums: [[UInt8]] = []
            albums.reserveCapacity(positions.count)
            for position in positions {
                guard let album = kept.albums[position] else { return nil }
                albums.append(album)
            }
            return WrittenPage(albums: albums, total: kept.total, current: current, currentPosition: kept.currentPosition)
        }
    }

    /// Keeps `page`, read at `revision` from the 0-based `offset`.
    func keep(_ page: WrittenPage, from offset: Int, at revision: Int64) {
        kept.withLock { kept in
            if let newer = kept?.revision, newer > revision { return }
            if kept?.revision != revision || kept!.albums.count + page.albums.count > Self.capacity {
                kept = Kept(revision: revision, total: page.total)
            }
            kept!.current = page.current
            kept!.currentPosition = page.currentPosition
            for (index, album) in page.albums.enumerated() { kept!.albums[offset + 1 + index] = album }
        }
    }
}
