import Foundation

/// Turns a cover reference into bytes: a bundle path, a `file://` URL, an `http(s)://` URL.
/// Fetchers form an ordered chain from `covers.fetchers`; the first that does not decline wins.
///
/// ## Implementation requirements
/// Return nil quickly for a reference this fetcher does not handle (wrong scheme), so the
/// next fetcher may try. Respect ``CoverFetchRequest/maxBytes`` while reading, never read a
/// `file://` outside the configured roots, and throw an ``AlbumKitError`` that says why a
/// reference it does handle could not be fetched.
public protocol CoverFetcher: Sendable {
    /// The name it is registered under (`bundle`, `file`, `http`).
    var name: String { get }
    /// The cover bytes for `request`, or nil when this fetcher does not handle it.
    func fetch(_ request: CoverFetchRequest) async throws -> Data?
    /// Releases what the fetcher holds (connections); called once, when fetching is done.
    func shutdown() async
}

extension CoverFetcher {
    /// Fetchers that hold nothing have nothing to release.
    public func shutdown() async {}
}

/// What a ``CoverFetcher`` is asked for.
public struct CoverFetchRequest: Sendable, Hashable {
    /// The album's `coverUrl`.
    public var reference: String
    /// The most bytes to read.
    public var maxBytes: Int

    public init(reference: String, maxBytes: Int) {
        self.reference = reference
        self.maxBytes = maxBytes
    }
}
