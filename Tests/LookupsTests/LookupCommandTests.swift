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
        try local.configure(cli)
        try cli.run("init")
        #expect(try cli.run("import", LocalServices.albumList(in: cli)).status == 0)
        #expect(local.server.requests.isEmpty, "import asks no service without --fetch-covers")
        let fetch = try cli.run("covers", "fetch")
        await local.stop()
        #expect(fetch.status == 3, "one album found no cover: done in part")
        #expect(fetch.output.contains("Covers: 2 fetched, 0 already stored, 1 failed."), "\(fetch.output)")
        // MusicBrainz is searched for each album; the archive's front is two requests (its 307,
        // then the image); iTunes is asked for the two the archive has nothing for; Discogs
        // for the one with a Discogs id (the release, then its image).
        #expect(fetch.output.contains("Requests: coverartarchive 2, discogs 2, itunes 2, musicbrainz 3."), "\(fetch.output)")
        #expect(fetch.output.contains(": coverartarchive: Nobody - Nothing: no match at MusicBrainz (score 90 or more); itunes: Nobody - Nothing: no album of that artist and title in the iTunes Store"), "\(fetch.output)")
        let listed = try cli.run("list", "--json").output
        let albums = (try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any])?["albums"] as? [[String: Any]] ?? []
        #expect(albums.compactMap { $0["cover"] as? String } == ["stored", "stored", "none"], "\(listed)")
        #expect(Set(local.server.requests.compactMap { $0.headers["user-agent"] }) == [LocalServices.userAgent])
        let undo = try cli.run("undo")
        #expect(undo.status == 0 && undo.output.contains("updated 2 albums"), "one step takes both found covers back: \(undo.output) \(undo.error)")
    }
}

/// Discogs without a token is skipped, and said once for the round, not album by album.
@Suite struct DiscogsWithoutTokenTests {
    @Test func theSkipIsSaidOncePerCommand() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let cli = try CLIRunner()
        defer { cli.remove() }
        try local.configure(cli, token: nil)
        try cli.run("init")
        let list = cli.folder.appendingPathComponent("discogs.json")
        try Data("""
            [{"id": "discogs:249504", "title": "Never Gonna Give You Up", "artist": "Rick Astley"},
             {"id": "discogs:1", "title": "Other", "artist": "Someone"}]
            """.utf8).write(to: list)
        #expect(try cli.run("import", list.path).status == 0)
        let fetch = try cli.run("covers", "fetch")
        let said = (fetch.output + fetch.error).components(separatedBy: "discogs: skipped, plugins.discogs.token is not set").count - 1
        #expect(said == 1, "\(fetch.output)\n\(fetch.error)")
        #expect(!local.server.requests.contains { $0.path.hasPrefix("/discogs") })
    }
}
