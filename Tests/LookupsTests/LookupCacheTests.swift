import AlbumKitTesting
import Foundation
import LoopbackHTTPServer
import Testing

/// The lookup cache (SPEC 11), end to end through the `albumkit` binary: what the services
/// answered is kept with the library, so a second `covers fetch` asks nothing already
/// answered, `--offline` asks nothing at all, and `covers status` says who gave each cover or
/// why none did.
@Suite struct LookupCacheTests {
    @Test func aSecondCoversFetchAsksNoServiceAboutAnAlbumAlreadyAnswered() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let cli = try CLIRunner()
        defer { cli.remove() }
        try local.configure(cli)
        try cli.run("init")
        #expect(try cli.run("import", LocalServices.albumList(in: cli)).status == 0)
        let first = try cli.run("covers", "fetch")
        #expect(first.output.contains("Covers: 2 fetched, 0 already stored, 1 failed."), "\(first.output)")
        let asked = local.server.requests.count

        let second = try cli.run("covers", "fetch")
        #expect(local.server.requests.count == asked, "the second round asked again: \(local.server.requests.dropFirst(asked).map(\.path))")
        #expect(!second.output.contains("Requests:"), "\(second.output)")
        #expect(second.output.contains("Covers: 0 fetched, 0 already stored, 1 failed."), "\(second.output)")
        #expect(second.output.contains("Nobody - Nothing: no match at MusicBrainz"), "the miss is said again from what was answered: \(second.output)")

        let status = try cli.run("covers", "status").output
        #expect(status.contains("found by coverartarchive"), "\(status)")
        #expect(status.contains("found by discogs"), "\(status)")
        #expect(status.contains("coverartarchive: no match at MusicBrainz (score 90 or more); itunes: no album of that artist and title in the iTunes Store"), "\(status)")

        // An album not asked about yet: offline, nothing is sent, and status says so.
        let more = cli.folder.appendingPathComponent("more.json")
        try Data(#"[{"title": "Unheard", "artist": "Someone"}]"#.utf8).write(to: more)
        #expect(try cli.run("import", more.path).status == 0)
        let offline = try cli.run("covers", "fetch", "--offline")
        #expect(local.server.requests.count == asked, "--offline sent requests: \(local.server.requests.dropFirst(asked).map(\.path))")
        #expect(offline.output.contains("Someone - Unheard: not looked up yet (offline)"), "\(offline.output)")
        #expect(try cli.run("covers", "status").output.contains("coverartarchive: not looked up yet; itunes: not looked up yet"))
    }

    @Test func aMissIsAskedAgainAfterRetryAfterDays() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let cli = try CLIRunner()
        defer { cli.remove() }
        try local.configure(cli, retryAfterDays: 0)
        try cli.run("init")
        #expect(try cli.run("import", LocalServices.albumList(in: cli)).status == 0)
        _ = try cli.run("covers", "fetch")
        let asked = local.server.requests.count
        let second = try cli.run("covers", "fetch")
        // Only the album nobody knows is asked again: MusicBrainz and iTunes, once each.
        #expect(second.output.contains("Requests: itunes 1, musicbrainz 1."), "\(second.output)")
        #expect(local.server.requests.count == asked + 2)
    }

    /// Export, then restore into a library on another backend: the answers come along, and the
    /// restored library asks nothing the first was answered.
    @Test(arguments: ["json", "plist", "sqlite"])
    func theAnswersTravelWithExportAndRestore(backend: String) async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let first = try CLIRunner()
        defer { first.remove() }
        try local.configure(first)
        try first.run("init")
        #expect(try first.run("import", LocalServices.albumList(in: first)).status == 0)
        _ = try first.run("covers", "fetch")
        let backup = first.folder.appendingPathComponent("backup.tar")
        let export = try first.run("export", backup.path)
        #expect(export.status == 0, "\(export.error)")

        let second = try CLIRunner()
        defer { second.remove() }
        try local.configure(second, extra: "storage: {backend: \(backend)}")
        try second.run("init")
        let restore = try second.run("restore", backup.path)
        #expect(restore.status == 0, "\(restore.error)")
        let asked = local.server.requests.count
        let fetch = try second.run("covers", "fetch")
        #expect(local.server.requests.count == asked, "the restored library asked again: \(local.server.requests.dropFirst(asked).map(\.path))")
        #expect(fetch.output.contains("Nobody - Nothing: no match at MusicBrainz"), "\(fetch.output)")
        #expect(try second.run("covers", "status").output.contains("found by coverartarchive"))
    }
}
