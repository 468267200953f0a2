import AlbumKit

/// The settings of the lookup services (SPEC 11), each under `plugins.<service>`, declared
/// once here for `config show`, the environment and the loader's checks.
public enum LookupSettings {
    /// The services' names, which are their settings sections' last parts.
    public static let musicBrainz = "musicbrainz"
    public static let coverArtArchive = "coverartarchive"
    public static let iTunes = "itunes"
    public static let discogs = "discogs"

    /// The enrichers, in the order `enrich` asks them: MusicBrainz's facts win over Discogs'.
    public static let enrichers: [AlbumEnricherFactory] = [.musicBrainzFacts, .discogsFacts]

    /// Each service's declared settings.
    public static let declarations: [String: [SettingDeclaration]] = [
        musicBrainz: [
            SettingDeclaration("baseURL", .text, default: .text("https://musicbrainz.org/ws/2"), "the MusicBrainz web service (version 2), or a mirror of it"),
            SettingDeclaration("requestsPerSecond", .number, default: .text("1"), "requests a second at most, across every lookup of the process: one at a time, each 1/requestsPerSecond after the last answered (MusicBrainz allows 1)"),
            SettingDeclaration("minScore", .integer(minimum: 0), default: .text("90"), "a search result counts as the album only at or above this score (0-100)"),
        ],
        coverArtArchive: [
            SettingDeclaration("baseURL", .text, default: .text("https://coverartarchive.org"), "the Cover Art Archive"),
        ],
        iTunes: [
            SettingDeclaration("baseURL", .text, default: .text("https://itunes.apple.com"), "the iTunes Search API"),
            SettingDeclaration("country", .text, default: .text("us"), "the store searched (two letters)"),
        ],
        discogs: [
            SettingDeclaration("baseURL", .text, default: .text("https://api.discogs.com"), "the Discogs API"),
            SettingDeclaration("token", .text, "a personal access token (Discogs settings, Developers); without one Discogs is skipped"),
        ],
    ]
}

extension AdapterRegistry {
    /// Declares the lookup services' settings (`plugins.musicbrainz`, `plugins.coverartarchive`,
    /// `plugins.itunes`, `plugins.discogs`) and registers their cover fetchers, outside the
    /// default chain: they ask services on the network about every album, so
    /// `covers.fetchers` names them to use them. Registers the enrichers `enrich` asks, and
    /// the `enrich` import stage (which `import.stages` names to run it).
    public mutating func registerLookups() {
        for (service, settings) in LookupSettings.declarations.sorted(by: { $0.key < $1.key }) {
            declare(section: "plugins.\(service)", settings)
        }
        for fetcher in [CoverFetcherFactory.coverArtArchive, .iTunesArtwork, .discogsImages] {
            register(fetcher, inDefaultChain: false)
        }
        for enricher in LookupSettings.enrichers { registerEnricher(enricher) }
        register(ImportStageFactory.enrich)
    }
}
