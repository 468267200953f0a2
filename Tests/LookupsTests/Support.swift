import AlbumKit
import AlbumKitTesting
import Foundation
import LoopbackHTTPServer
import Lookups
import NIOHTTP1
import Synchronization

/// The answers the local services give: files in `Fixtures/` and `Tests/Fixtures/real/`.
enum Answers {
    private static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// A fixture of this target.
    static func fixture(_ name: String) -> String {
        try! String(contentsOf: here.appendingPathComponent("Fixtures/\(name)"), encoding: .utf8)
    }

    /// A real answer kept under `Tests/Fixtures/real/`.
    static func real(_ path: String) -> String {
        try! String(contentsOf: here.deletingLastPathComponent().appendingPathComponent("Fixtures/real/\(path)"), encoding: .utf8)
    }

    /// MusicBrainz's answer to a lookup of an MBID it does not know.
    static let musicBrainzNotFound = #"{"error":"Not Found","help":"For usage, please see: https://musicbrainz.org/development/mmd"}"#

    /// The release of `Tests/Fixtures/real/musicbrainz/release.json` and its group.
    static let release = "b84ee12a-09ef-421b-82de-0441a926375b"
    static let releaseGroup = "f5093c06-23e3-404f-aeaa-40f72885ee3a"
}

/// The four services played by one local server (its paths say which), and the
/// configuration that points the lookups at it.
struct LocalServices {
    let server: LoopbackHTTPServer

    static let userAgent = "albumkit-tests/1.0 ( tests@example.com )"
    static let token = "t0kenT0ken"

    /// The server, answering with `respond`.
    static func start(_ respond: @escaping LoopbackHTTPServer.Responder) async throws -> LocalServices {
        LocalServices(server: try await LoopbackHTTPServer.start(respond))
    }

    func stop() async { await server.stop() }

    /// The lookups' configuration: every base URL on the local server, MusicBrainz at
    /// `requestsPerSecond`, Discogs with a token unless `token` is nil. The timeout is long:
    /// beside every other suite, a busy machine can hold this process up for many seconds.
    func configuration(requestsPerSecond: Double = 50, minScore: Int = 90, token: String? = LocalServices.token, timeout: Double = 60) -> Configuration {
        var configuration = Configuration(environment: [:])
        var registry = AdapterRegistry()
        registry.registerLookups()
        configuration.declarations = registry.settingSections
        configuration.lookups.userAgent = Self.userAgent
        configuration.covers.timeoutSeconds = timeout
        configuration.sectionValues = [
            "plugins.musicbrainz": PluginSettings([
                "baseURL": .text(server.url("/ws/2")), "requestsPerSecond": .text(String(requestsPerSecond)), "minScore": .text(String(minScore)),
            ]),
            "plugins.coverartarchive": PluginSettings(["baseURL": .text(server.url("/caa"))]),
            "plugins.itunes": PluginSettings(["baseURL": .text(server.url("/itunes"))]),
            "plugins.discogs": PluginSettings(["baseURL": .text(server.url("/discogs"))].merging(token.map { ["token": .text($0)] } ?? [:]) { $1 }),
        ]
        return configuration
    }

    /// The clients for ``configuration(requestsPerSecond:minScore:token:timeout:)``.
    func services(requestsPerSecond: Double = 50, minScore: Int = 90, token: String? = LocalServices.token, timeout: Double = 60) throws -> LookupServices {
        try LookupServices(configuration: configuration(requestsPerSecond: requestsPerSecond, minScore: minScore, token: token, timeout: timeout))
    }

    /// Writes the configuration of `cli`'s sandbox: every lookup service in `covers.fetchers`,
    /// each at this server, Discogs with `token` (none: nil); `extra` lines are added at the
    /// top level.
    func configure(_ cli: CLIRunner, retryAfterDays: Double = 30, token: String? = Self.token, extra: String = "") throws {
        let config = cli.folder.appendingPathComponent("config/albumkit/config.yaml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("""
            covers: {fetchers: [bundle, file, http, coverartarchive, itunes, discogs], timeoutSeconds: 60}
            lookups: {userAgent: "\(Self.userAgent)", retryAfterDays: \(retryAfterDays)}
            plugins:
              musicbrainz: {baseURL: "\(server.url("/ws/2"))", requestsPerSecond: 50}
              coverartarchive: {baseURL: "\(server.url("/caa"))"}
              itunes: {baseURL: "\(server.url("/itunes"))"}
              discogs: {baseURL: "\(server.url("/discogs"))"\(token.map { ", token: \($0)" } ?? "")}
            \(extra)
            """.utf8).write(to: config)
    }

    /// Three albums as an album list in `cli`'s sandbox: one MusicBrainz finds, one with a
    /// Discogs id, one no service knows.
    static func albumList(in cli: CLIRunner) throws -> String {
        let list = cli.folder.appendingPathComponent("albums.json")
        try Data("""
            [{"title": "The Dark Side of the Moon", "artist": "Pink Floyd", "year": "1973"},
             {"id": "discogs:249504", "title": "Never Gonna Give You Up", "artist": "Rick Astley"},
             {"title": "Nothing", "artist": "Nobody"}]
            """.utf8).write(to: list)
        return list.path
    }

    /// `text` with the services' real hosts replaced by this server's paths for them.
    static func local(_ text: String, port: Int) -> String {
        text.replacingOccurrences(of: "https://coverartarchive.org", with: "http://127.0.0.1:\(port)/caa")
            .replacingOccurrences(of: "https://is1-ssl.mzstatic.com", with: "http://127.0.0.1:\(port)/mzstatic")
            .replacingOccurrences(of: "https://api-img.discogs.com", with: "http://127.0.0.1:\(port)/discogs-img")
    }
}

extension LoopbackHTTPServer.Answer {
    /// A fixture's JSON with the services' hosts made local.
    static func local(_ text: String, _ request: LoopbackHTTPServer.Request) -> Self {
        .json(LocalServices.local(text, port: request.port))
    }

    /// An image answer.
    static func image(_ data: Data, type: String = "image/jpeg") -> Self {
        .init(.ok, ["Content-Type": type], [UInt8](data))
    }
}
