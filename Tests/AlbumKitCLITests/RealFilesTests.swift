import AlbumKitTesting
import Testing

/// Files other people's tools wrote for real collections and published — Discogs and
/// RateYourMusic exports, iTunes and Apple Music `Library.xml` files, Kodi-style `album.nfo`
/// files, tagged audio from mutagen's test data and a library real beets made of it
/// (`Tests/Fixtures/real/SOURCES.md`) — each imported through the `albumkit` binary into a new
/// library and compared with the albums written out by hand from reading it.
@Suite struct RealFilesTests {
    static let sources = ["discogs", "rym", "itunes", "kodi", "beets", "audio"]

    @Test(arguments: sources.flatMap { RealFixture.all($0) })
    func importsAsWrittenOutByHand(_ fixture: RealFixture) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let problems = try fixture.importProblems(in: cli)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// SPEC 1: every field of what a real file imports as survives a bundle export and restore.
    @Test(arguments: sources.flatMap { RealFixture.all($0) })
    func comesBackWholeFromABundle(_ fixture: RealFixture) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)
        let imported = try cli.run("import", fixture.url.path)
        #expect(imported.status == 0, "\(imported.error)")
        let problems = try cli.bundleRoundTripProblems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(arguments: sources)
    func eachSourceHasThreeRealFiles(_ source: String) {
        #expect(RealFixture.all(source).count >= 3)
    }
}
