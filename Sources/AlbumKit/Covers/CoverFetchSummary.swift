/// What a round of cover fetching did.
public struct CoverFetchSummary: Sendable, Hashable {
    /// One album whose cover could not be fetched, and why.
    public struct Failure: Sendable, Hashable {
        public let album: AlbumID
        public let reference: String
        public let reason: String
    }

    /// Covers fetched over the network or from disk.
    public var fetched = 0
    /// Covers already stored: no fetch was made.
    public var cached = 0
    /// Covers that could not be fetched.
    public var failures: [Failure] = []
    /// Requests sent to each service the fetchers ask (`musicbrainz`, `coverartarchive`…).
    public var requests: [String: Int] = [:]
    /// What the fetchers had to say once about the round (Discogs skipped without a token).
    public var notes: [String] = []

    public init() {}
}
