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
    /// Whether ``total`` counts every match (``AlbumPage/totalIsExact``).
    let totalIsExact: Bool

    /// `page` written out.
    init(_ page: AlbumPage) {
        self.init(
            albums: page.albums.map { AlbumBody($0).json }, total: page.total, current: page.current, currentPosition: page.currentPosition,
            totalIsExact: page.totalIsExact)
    }

    init(albums: [[UInt8]], total: Int, current: AlbumID?, currentPosition: Int?, totalIsExact: Bool) {
        self.albums = albums
        self.total = total
        self.current = current
        self.currentPosition = currentPosition
        self.totalIsExact = totalIsExact
    }
}

/// What a page asks for: `limit` albums from the 0-based `offset` of those `query` matches in
/// `order`.
struct PageRequest: Sendable, Hashable {
    var query: AlbumQuery
    var order: AlbumSort
    var offset: Int
    var limit: Int

    /// Whether the page is a range of the library in its own order (no query, no sort).
    var isPlain: Bool { query.isEmpty && order.keys.isEmpty }
}

/// The JSON of the pages shown, kept for one revision of the library
/// (``Library/revision()``), so a page is read and written once per revision rather than once
/// per request: reading an album's details and writing its JSON took half of a
/// `GET /api/albums?limit=100` of collectors' albums, and a search's page cost several database
/// round trips (BENCHMARKS.md, issue 37). Everything a page says is fixed by the revision and
/// the current album: the albums at each position, the matches of a query and their order,
/// the library's size, and the covers' states (a cover's bytes are stored before the save
/// that names them, and only covers no album names are ever removed).
///
/// Plain pages keep each album by position, so any page inside those shown is made of them;
/// the first page read at a newer revision drops what was kept, and at most ``capacity``
/// albums are kept (a page that would pass it starts afresh). Pages of a query or a sort are
/// kept whole, the most recently used first, within ``capacity`` albums too; keeping one at a
/// newer revision drops those of older ones. So memory stays bounded whatever the library's
/// size.
final class AlbumJSONCache: Sendable {
    /// The most albums kept by plain pages, and again by searched ones (about 1.4 KB each for
    /// an album with a dozen tracks).
    static let capacity = 4096

    private struct Plain {
        var revision: Int64
        var total: Int
        var current: AlbumID?
        var currentPosition: Int?
        /// By 1-based library position.
        var albums: [Int: [UInt8]] = [:]
    }

    private struct Searched {
        var request: PageRequest
        var revision: Int64
        var page: WrittenPage
    }

    private struct Kept {
        var plain: Plain?
        /// The least recently used first.
        var searched: [Searched] = []
    }

    private let kept = Mutex(Kept())

    /// The page `request` asks for at `revision` with `current` as the current album, when it
    /// is kept whole; nil otherwise.
    func page(_ request: PageRequest, at revision: Int64, current: AlbumID?) -> WrittenPage? {
        kept.withLock { kept in
            guard request.isPlain else {
                guard let index = kept.searched.firstIndex(where: { $0.request == request }) else { return nil }
                let found = kept.searched.remove(at: index)
                guard found.revision == revision, found.page.current == current else { return nil }
                kept.searched.append(found)
                return found.page
            }
            guard let plain = kept.plain, plain.revision == revision, plain.current == current else { return nil }
            let positions = (request.offset + 1)..<(min(plain.total, request.offset + request.limit) + 1)
            var albums: [[UInt8]] = []
            albums.reserveCapacity(positions.count)
            for position in positions {
                guard let album = plain.albums[position] else { return nil }
                albums.append(album)
            }
            return WrittenPage(albums: albums, total: plain.total, current: current, currentPosition: plain.currentPosition, totalIsExact: true)
        }
    }

    /// Keeps `page`, the answer to `request` read at `revision`.
    func keep(_ page: WrittenPage, for request: PageRequest, at revision: Int64) {
        kept.withLock { kept in
            guard request.isPlain else {
                if kept.searched.contains(where: { $0.revision > revision }) { return }
                kept.searched.removeAll { $0.request == request || $0.revision < revision }
                kept.searched.append(Searched(request: request, revision: revision, page: page))
                var albums = kept.searched.reduce(0) { $0 + $1.page.albums.count }
                while albums > Self.capacity, kept.searched.count > 1 {
                    albums -= kept.searched.removeFirst().page.albums.count
                }
                return
            }
            if let newer = kept.plain?.revision, newer > revision { return }
            if kept.plain?.revision != revision || kept.plain!.albums.count + page.albums.count > Self.capacity {
                kept.plain = Plain(revision: revision, total: page.total)
            }
            kept.plain!.current = page.current
            kept.plain!.currentPosition = page.currentPosition
            for (index, album) in page.albums.enumerated() { kept.plain!.albums[request.offset + 1 + index] = album }
        }
    }
}
