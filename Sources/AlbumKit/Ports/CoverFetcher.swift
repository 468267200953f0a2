import Foundation

/// Turns a cover reference into bytes: a bundle path, a `file://` URL, an `http(s)://` URL —
/// or, for a fetcher that ``findsByAlbum``, finds a cover by what the album is (a lookup
/// service: the Cover Art Archive, iTunes, Discogs). Fetchers form an ordered chain from
/// `covers.fetchers`; the first that gives an image wins, and one that fails or declines
/// passes the album on to the next.
///
/// ## Implementation requirements
/// Return nil quickly for a reference this fetcher does not handle (wrong scheme), so the
/// next fetcher may try. Respect ``CoverFetchRequest/maxBytes`` while reading, never read a
/// `file://` outside the configured roots, and throw an ``AlbumKitError`` that says why a
/// reference it does handle could not be fetched. A fetcher that finds by album returns nil
/// when it finds nothing for the album (or a ``FoundCover`` without bytes that says why), and
/// reports the identities it found on the way in ``FoundCover/ids``. Its
/// ``lookupKey(for:)`` names what it asks the service by, so the library remembers the
/// answer (``LookupAnswer``) and does not ask again.
public protocol CoverFetcher: Sendable {
    /// The name it is registered under (`bundle`, `file`, `http`).
    var name: String { get }
    /// The cover bytes for `request`, or nil when this fetcher does not handle it.
    func fetch(_ request: CoverFetchRequest) async throws -> Data?
    /// Whether this fetcher finds covers by what the album is (``CoverFetchRequest/album``)
    /// rather than by its reference: it is asked for albums that name no cover too, and an
    /// image it finds must pass `covers.minPixels` and `covers.maxAspect`.
    var findsByAlbum: Bool { get }
    /// The cover for `request` with what the fetcher learned of the album on the way; nil
    /// when it does not handle the request or learned nothing.
    func find(_ request: CoverFetchRequest) async throws -> FoundCover?
    /// What this fetcher asks its service by for `album` (`release:<mbid>`, artist and
    /// title…), the key its answer is remembered under; nil when it asks nothing about this
    /// album (or is no lookup service). Two albums with the same key get the same answer.
    func lookupKey(for album: Album) -> String?
    /// How many requests it sent to each service it asks (a lookup fetcher's services), for
    /// the summary of a round.
    var requestCounts: [String: Int] { get }
    /// What it has to say once about the round, not album by album (a service it skipped,
    /// and why), for the summary.
    var notes: [String] { get }
    /// Releases what the fetcher holds (connections); called once, when fetching is done.
    func shutdown() async
}

extension CoverFetcher {
    /// Fetchers that hold nothing have nothing to release.
    public func shutdown() async {}

    /// A fetcher follows references unless it says otherwise.
    public var findsByAlbum: Bool { false }

    /// A fetcher asks no service unless it says otherwise.
    public var requestCounts: [String: Int] { [:] }

    /// A fetcher has nothing to say of a round unless it says otherwise.
    public var notes: [String] { [] }

    /// A fetcher that asks no lookup service has no answer to remember.
    public func lookupKey(for album: Album) -> String? { nil }

    /// What ``fetch(_:)`` gives, having learned nothing on the way.
    public func find(_ request: CoverFetchRequest) async throws -> FoundCover? {
        try await fetch(request).map { FoundCover(bytes: $0) }
    }
}

/// A cover a fetcher found, and the album's identities it found on the way (`musicbrainz`,
/// `musicbrainzGroup`, `itunes`… as SPEC 1's `ids` names them), which the library keeps.
public struct FoundCover: Sendable, Hashable {
    /// The image; nil when the fetcher found the album (its ``ids``) but no cover of it.
    public var bytes: Data?
    public var ids: [String: String]
    /// Why there are no bytes, when there are none (`no match at MusicBrainz`), for `covers
    /// status`.
    public var reason: String?

    public init(bytes: Data?, ids: [String: String] = [:], reason: String? = nil) {
        self.bytes = bytes
        self.ids = ids
        self.reason = reason
    }
}

/// What a ``CoverFetcher`` is asked for.
public struct CoverFetchRequest: Sendable, Hashable {
    /// The album's `coverUrl`; empty when the album names no cover (then only fetchers that
    /// find by album are asked).
    public var reference: String
    /// The most bytes to read.
    public var maxBytes: Int
    /// The album the cover is for, for a fetcher that finds covers by what the album is; nil
    /// when a reference alone is asked for.
    public var album: Album?

    public init(reference: String, maxBytes: Int, album: Album? = nil) {
        self.reference = reference
        self.maxBytes = maxBytes
        self.album = album
    }
}
