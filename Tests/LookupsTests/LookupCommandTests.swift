import AlbumKitTesting
import Foundation
import LoopbackHTTPServer
import Testing

/// End-to-end: the `albumkit` binary, configured to look covers up at the local services.
@Suite struct LookupCommandTests {
    @Test func coversFetchLooksUpAlbumsThatNameNoCoverAndSaysWhereRequestsWent() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let cli = try CLIRunner()
        defer { cli.remove() }
        let config = cli.folder.appendingPathComponent("config/albumkit/config.yaml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("""
            covers: {fetchers: [bundle, file, http, coverartarchive, itunes, discogs], timeoutSeconds: 60}
            lookups: {userAgent: "\(LocalServices.userAgent)"}
            plugins:
              musicbrainz: {baseURL: "\(local.server.url("/ws/2"))", requestsPerSecond: 50}
              coverartarchive: {baseURL: "\(local.server.url("/caa"))"}
              itunes: {baseURL: "\(local.server.url("/itunes"))"}
              discogs: {baseURL: "\(local.server.url("/discogs"))", token: \(LocalServices.token)}
            """.utf8).write(to: config)
        try cli.run("init")
        let list = cli.folder.appendingPathComponent("albums.json")
        try Data("""
            [{"title": "The Dark Side of the Moon", "artist": "Pink Floyd", "year": "1973"},
             {"id": "discogs:249504", "title": "Never Gonna Give You Up", "artist": "Rick Astley"},
             {"title": "Nothing", "artist": "Nobody"}]
            """.utf8).write(to: list)
        #expect(try cli.run("import", list.path).status == 0)
        #expect(local.server.requests.isEmpty, "import asks no service without --fetch-covers")
        let fetch = try cli.run("covers", "fetch")
        await local.stop()
        #expect(fetch.status != 0, "one album found no cover")
        #expect(fetch.output.contains("Covers: 2 fetched, 0 already stored, 1 failed."), "\(fetch.output)")
        // MusicBrainz is searched for each album; the archive's front is two requests (its 307,
        // then the image); iTunes is asked for the two the archive has nothing for; Discogs
        // for the one with a Discogs id (the release, then its image).
        #expect(fetch.output.contains("Requests: coverartarchive 2, discogs 2, itunes 2, musicbrainz 3."), "\(fetch.output)")
        #expect(fetch.output.contains(": Nobody - Nothing: no fetcher in covers.fetchers (bundle, file, http, coverartarchive, itunes, discogs) found a cover"), "\(fetch.output)")
        let listed = try cli.run("list", "--json").output
        let albums = (try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any])?["albums"] as? [[String: Any]] ?? []
        #expect(albums.compactMap { $0["cover"] as? String } == ["stored", "stored", "none"], "\(listed)")
        #expect(Set(local.server.requests.compactMap { $0.headers["user-agent"] }) == [LocalServices.userAgent])
        let undo = try cli.run("undo")
        #expect(undo.status == 0 && undo.output.contains("updated 2 albums"), "one step takes both found covers back: \(undo.output) \(undo.error)")
    }
}
