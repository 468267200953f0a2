import AlbumKit
import HTTPCovers

/// The four services of SPEC 11 as the configuration sets them up, sharing one HTTP client
/// (address checks, timeouts and size limits of `covers`, `lookups.userAgent`), one tally of
/// requests, and the process's rate limiter of each service.
public struct LookupServices: Sendable {
    public let musicBrainz: MusicBrainzClient
    public let coverArtArchive: CoverArtArchiveClient
    public let iTunes: ITunesSearchClient
    /// Nil without `plugins.discogs.token`: Discogs answers no release without one.
    public let discogs: DiscogsClient?
    /// How many requests went to each service.
    public let tally: RequestTally
    /// The connections every service's requests go through.
    private let client: GuardedHTTPClient

    /// The services `configuration` sets up; `policy` decides which addresses may be reached.
    /// A base URL that is not an `http(s)` URL is a configuration error naming its key.
    public init(configuration: Configuration, policy: AddressPolicy = AddressPolicy(), tally: RequestTally = RequestTally()) throws {
        let covers = configuration.covers
        let client = GuardedHTTPClient(
            allowedSchemes: covers.allowedSchemes, timeoutSeconds: covers.timeoutSeconds, connectionsPerHost: covers.concurrency,
            policy: policy, userAgent: configuration.lookups.userAgent)
        func connection(_ service: String, requestsPerSecond: Double?) throws -> ServiceConnection {
            let settings = configuration.settings(for: service)
            return try ServiceConnection(
                service: service, baseURL: settings.string("baseURL") ?? "", requestsPerSecond: requestsPerSecond, client: client,
                tally: tally, imageBytes: covers.maxBytes)
        }
        let brainz = configuration.settings(for: LookupSettings.musicBrainz)
        musicBrainz = MusicBrainzClient(
            connection: try connection(LookupSettings.musicBrainz, requestsPerSecond: brainz.number("requestsPerSecond") ?? 1),
            minScore: brainz.integer("minScore") ?? 90)
        coverArtArchive = CoverArtArchiveClient(connection: try connection(LookupSettings.coverArtArchive, requestsPerSecond: nil))
        iTunes = ITunesSearchClient(
            connection: try connection(LookupSettings.iTunes, requestsPerSecond: ITunesSearchClient.requestsPerSecond),
            country: configuration.settings(for: LookupSettings.iTunes).string("country") ?? "us")
        let token = configuration.settings(for: LookupSettings.discogs).string("token") ?? ""
        discogs = token.isEmpty ? nil : DiscogsClient(connection: try connection(LookupSettings.discogs, requestsPerSecond: DiscogsClient.requestsPerSecond), token: token)
        self.tally = tally
        self.client = client
    }

    /// Closes the services' connections (else they close when the last copy of these services
    /// is released).
    public func shutdown() async { await client.shutdown() }
}
