import AlbumKit
import AlbumKitTesting
import Foundation
import Lookups
import Testing

/// The services' settings are declared plugin settings (file, environment, checks), and the
/// `lookups` and `covers` keys of SPEC 11 are core keys.
@Suite struct LookupSettingsTests {
    private func load(_ yaml: String, env: [String: String] = [:]) throws -> Configuration {
        let folder = try TemporaryFolder("lookup-settings")
        defer { folder.remove() }
        try Data(yaml.utf8).write(to: folder.path("albumkit.yaml"))
        var registry = AdapterRegistry.builtIn
        registry.registerLookups()
        return try ConfigurationLoader(
            environment: ["HOME": folder.url.path, "XDG_CONFIG_HOME": folder.path("cfg").path].merging(env) { $1 },
            workingDirectory: folder.url.path, registry: registry
        ).load()
    }

    @Test func theSettingsComeFromTheFileAndTheEnvironment() throws {
        let configuration = try load("""
            covers: {minPixels: 500, maxAspect: 1.3}
            lookups: {userAgent: "mine/2.0 ( me@example.com )", retryAfterDays: 7}
            plugins:
              musicbrainz: {baseURL: "http://127.0.0.1:5000/ws/2", minScore: 95}
              discogs: {token: abc}
            """, env: [
                "ALBUMKIT_PLUGINS_MUSICBRAINZ_REQUESTS_PER_SECOND": "0.5", "ALBUMKIT_PLUGINS_ITUNES_COUNTRY": "gb",
                "ALBUMKIT_PLUGINS_COVERARTARCHIVE_BASE_URL": "http://127.0.0.1:5001",
            ])
        #expect(configuration.covers.minPixels == 500 && configuration.covers.maxAspect == 1.3)
        #expect(configuration.lookups.userAgent == "mine/2.0 ( me@example.com )" && configuration.lookups.retryAfterDays == 7)
        let services = try LookupServices(configuration: configuration)
        #expect(services.musicBrainz.connection.baseURL == "http://127.0.0.1:5000/ws/2" && services.musicBrainz.minScore == 95)
        #expect(configuration.settings(for: "musicbrainz").number("requestsPerSecond") == 0.5)
        #expect(services.coverArtArchive.connection.baseURL == "http://127.0.0.1:5001", "baseURL is BASE_URL in the environment")
        #expect(services.iTunes.country == "gb")
        #expect(services.discogs?.connection.baseURL == "https://api.discogs.com")
    }

    @Test func aRunOfCapitalsIsOneWordInTheEnvironment() {
        #expect(ConfigurationKey.environmentName(for: "plugins.musicbrainz.baseURL") == "ALBUMKIT_PLUGINS_MUSICBRAINZ_BASE_URL")
        #expect(ConfigurationKey.environmentName(for: "plugins.x.URLPath") == "ALBUMKIT_PLUGINS_X_URL_PATH")
        #expect(ConfigurationKey.environmentName(for: "storage.lockTimeoutSeconds") == "ALBUMKIT_STORAGE_LOCK_TIMEOUT_SECONDS")
        #expect(ConfigurationKey.environmentName(for: "plugins.genre-map.table") == "ALBUMKIT_PLUGINS_GENRE_MAP_TABLE")
    }

    @Test func theDefaultsAreSPEC11s() throws {
        let configuration = try load("{}")
        #expect(configuration.lookups.userAgent == "albumkit/\(AlbumKitVersion.current)")
        #expect(configuration.lookups.retryAfterDays == 30)
        let services = try LookupServices(configuration: configuration)
        #expect(services.musicBrainz.connection.baseURL == "https://musicbrainz.org/ws/2" && services.musicBrainz.minScore == 90)
        #expect(services.iTunes.connection.baseURL == "https://itunes.apple.com" && services.iTunes.country == "us")
        #expect(services.discogs == nil, "no token, no Discogs")
    }

    @Test func aMistypedKeyOrABadValueIsNamed() throws {
        let mistyped = #expect(throws: AlbumKitError.self) { try load("plugins:\n  musicbrainz: {baseUrl: x}\n") }
        #expect(mistyped?.description.contains("unknown key 'plugins.musicbrainz.baseUrl'") == true, "\(String(describing: mistyped))")
        #expect(mistyped?.description.contains("plugins.musicbrainz.baseURL") == true, "the closest key is named")
        let aspect = #expect(throws: AlbumKitError.self) { try load("covers: {maxAspect: 0.5}\n") }
        #expect(aspect?.description.contains("covers.maxAspect") == true && aspect?.description.contains("must be a ratio of at least 1.0, not '0.5'") == true, "\(String(describing: aspect))")
        let url = #expect(throws: AlbumKitError.self) { try LookupServices(configuration: try load("plugins:\n  coverartarchive: {baseURL: 'file:///etc'}\n")) }
        #expect(url?.description == "plugins.coverartarchive.baseURL: 'file:///etc' is not an http(s) URL")
    }
}
