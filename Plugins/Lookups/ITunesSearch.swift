import AlbumKit
import Foundation

/// The iTunes Search API (`<baseURL>/search?term=…&entity=album`): albums by artist and
/// title, and their artwork at the size asked. Apple publishes about 20 calls a minute.
public struct ITunesSearchClient: Sendable {
    /// The connection, for its base URL and service name.
    public let connection: ServiceConnection
    /// The store searched (`us`, `gb`): two letters.
    public let country: String

    /// Apple's published rate: about 20 calls a minute.
    public static let requestsPerSecond = 20.0 / 60

    init(connection: ServiceConnection, country: String) {
        self.connection = connection
        self.country = country
    }

    /// The albums a search for the artist and title finds, in the store's order.
    public func searchAlbums(artist: String, title: String) async throws -> [ITunesAlbum] {
        let url = connection.url("/search", query: [
            ("term", "\(artist) \(title)"), ("media", "music"), ("entity", "album"), ("country", country), ("limit", "25"),
        ])
        return try await connection.json(ITunesSearchResult.self, at: url)?.results ?? []
    }

    /// The album found whose artist is the query's and whose title is the query's: the first
    /// with the very title, else the first whose title is it with a store's suffix
    /// (` (Deluxe Edition)`, ` [Remastered]`, ` - EP`).
    public func bestAlbum(for query: LookupQuery) async throws -> ITunesAlbum? {
        let artist = Self.folded(query.artist)
        let title = Self.folded(query.title)
        let albums = try await searchAlbums(artist: query.artist, title: query.title).filter { $0.artistName.map(Self.folded) == artist }
        return albums.first { $0.collectionName.map(Self.folded) == title }
            ?? albums.first { $0.collectionName.map { Self.folded(Self.withoutSuffix($0)) } == title }
    }

    /// `name` without a store's suffix: a last part in parentheses or brackets, or after ` - `.
    static func withoutSuffix(_ name: String) -> String {
        name.replacing(/\s*(\([^()]*\)|\[[^\[\]]*\]|\s-\s[^-]*)\s*$/, with: "")
    }

    /// The artwork of `album` at `pixels`×`pixels`; nil when it names none or the store
    /// answers 404.
    public func artwork(of album: ITunesAlbum, pixels: Int = 600) async throws -> Data? {
        guard let url = album.artworkURL(pixels: pixels) else { return nil }
        return try await connection.image(at: url, limited: false)
    }

    /// `text` compared loosely: lower case, without diacritics, punctuation as spaces, runs
    /// of spaces as one.
    static func folded(_ text: String) -> String {
        let plain = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        let spaced = String(plain.map { $0.isLetter || $0.isNumber ? $0 : " " })
        return spaced.split(separator: " ").joined(separator: " ")
    }
}

/// An album as the search answers it.
public struct ITunesAlbum: Decodable, Sendable, Hashable {
    public let wrapperType: String?
    public let collectionType: String?
    public let collectionId: Int?
    public let artistName: String?
    public let collectionName: String?
    /// The artwork at 100×100: `…/source/100x100bb.jpg`.
    public let artworkUrl100: String?
    public let releaseDate: String?
    public let primaryGenreName: String?
    public let trackCount: Int?
    public let country: String?
    public let copyright: String?

    /// The artwork at `pixels`×`pixels`: the store serves any size its URL's last part names,
    /// so `100x100bb.jpg` becomes `600x600bb.jpg`. Nil when there is no artwork URL or its
    /// last part names no size.
    public func artworkURL(pixels: Int) -> String? {
        guard let url = artworkUrl100, let slash = url.lastIndex(of: "/") else { return nil }
        let last = url[url.index(after: slash)...]
        guard let range = last.range(of: "100x100") else { return nil }
        return url[...slash] + last.replacingCharacters(in: range, with: "\(pixels)x\(pixels)")
    }
}

/// The search's answer: `{"resultCount": 1, "results": […]}`.
struct ITunesSearchResult: Decodable {
    let resultCount: Int?
    let results: [ITunesAlbum]?
}
