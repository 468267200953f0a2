import AlbumKitTesting
import Foundation
import LoopbackHTTPServer
import Testing

/// `albumkit enrich` and the `enrich` import stage end-to-end: the binary, the local
/// MusicBrainz and Discogs answering with their real answers (`Tests/Fixtures/real/musicbrainz`,
/// `Fixtures/discogs-release.json`).
@Suite struct EnrichCommandTests {
    /// Pink Floyd (matched by the MusicBrainz search) with a label of its own, Rick Astley (a
    /// Discogs id), and an album no service knows.
    static func albumList(in cli: CLIRunner) throws -> String {
        let list = cli.folder.appendingPathComponent("enrich.json")
        try Data("""
            [{"id": "floyd", "title": "The Dark Side of the Moon", "artist": "Pink Floyd", "year": "1973", "label": "My Label"},
             {"id": "discogs:249504", "title": "Never Gonna Give You Up", "artist": "Rick Astley"},
             {"id": "nothing", "title": "Nothing", "artist": "Nobody"}]
            """.utf8).write(to: list)
        return list.path
    }

    /// An album of `cli`'s library as `show --json` gives it.
    static func album(_ cli: CLIRunner, _ id: String) throws -> [String: Any] {
        let shown = try cli.run("show", id, "--json").output
        return (try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])?["album"] as? [String: Any] ?? [:]
    }

    /// A library of the three albums, with every service at `local`.
    static func library(_ local: LocalServices, extra: String = "") throws -> CLIRunner {
        let cli = try CLIRunner()
        try local.configure(cli, extra: extra)
        try cli.run("init")
        let imported = try cli.run("import", albumList(in: cli))
        #expect(imported.status == 0, "\(imported.error)")
        return cli
    }

    @Test func dryRunPrintsFieldByFieldThenEnrichFillsOnlyEmptyFieldsAndOneUndoTakesItBack() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let cli = try Self.library(local)
        defer { cli.remove() }
        let before = try cli.run("list", "--json").output

        let dry = try cli.run("enrich", "--dry-run")
        #expect(dry.status == 0, "\(dry.error)")
        for line in [
            "1. Pink Floyd - The Dark Side of the Moon (floyd)", "  released: (empty) -> 1973-03-24", "  catalogNumber: (empty) -> SHVL 804",
            "  country: (empty) -> GB", "  genre: (empty) -> genre1", "  tracks: (empty) -> 10", "  ids.musicbrainz: (empty) -> \(Answers.release)",
            "2. Rick Astley - Never Gonna Give You Up (discogs:249504)", "  label: (empty) -> RCA", "  barcode: (empty) -> 5012394144777",
            "Enrich: 3 looked up, 2 would be enriched",
        ] {
            #expect(dry.output.contains(line + "\n") || dry.output.contains(line + " ("), "\(line) in:\n\(dry.output)")
        }
        #expect(!dry.output.contains("label: My Label"), "a filled field is kept: \(dry.output)")
        #expect(!dry.output.contains("Nobody"), "nothing found, nothing to print: \(dry.output)")
        #expect(try cli.run("list", "--json").output == before, "a dry run changes nothing")

        let requestsBefore = local.server.requests.count
        let run = try cli.run("enrich")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("Enrich: 3 looked up, 2 enriched (barcode 2, catalogNumber 2, country 2, format 2, genre 2, ids 2, label 1, released 2, tags 2, tracks 2, year 1)."), "\(run.output)")
        // MusicBrainz: the search and the release for Pink Floyd, a search for each other album; Discogs: the release.
        #expect(run.output.contains("Requests: discogs 1, musicbrainz 4."), "\(run.output)")
        #expect(local.server.requests.count - requestsBefore == 5)

        let floyd = try Self.album(cli, "floyd")
        #expect(floyd["label"] as? String == "My Label", "a filled field is kept")
        #expect(floyd["released"] as? String == "1973-03-24" && floyd["year"] as? String == "1973")
        #expect(floyd["catalogNumber"] as? String == "SHVL 804" && floyd["country"] as? String == "GB" && floyd["barcode"] as? String == "123")
        #expect(floyd["format"] as? String == "12\" Vinyl" && floyd["genre"] as? String == "genre1" && floyd["tags"] as? [String] == ["genre2"])
        #expect((floyd["tracks"] as? [[String: Any]])?.count == 10)
        #expect((floyd["ids"] as? [String: String]) == ["musicbrainz": Answers.release, "musicbrainzGroup": Answers.releaseGroup])
        let astley = try Self.album(cli, "discogs:249504")
        #expect(astley["label"] as? String == "RCA" && astley["catalogNumber"] as? String == "PB 41447" && astley["country"] as? String == "UK")
        #expect(astley["genre"] as? String == "Electronic" && astley["tags"] as? [String] == ["Pop", "Synth-pop"] && astley["released"] as? String == "1987")
        #expect(astley["format"] as? String == "Vinyl, 7\", Single, 45 RPM" && (astley["tracks"] as? [[String: Any]])?.count == 2)
        #expect(try Self.album(cli, "nothing")["label"] == nil)

        let undo = try cli.run("undo")
        #expect(undo.status == 0, "\(undo.error)")
        #expect(try cli.run("list", "--json").output == before, "one undo takes the whole run back")
    }

    @Test func overwriteReplacesFilledFields() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let cli = try Self.library(local)
        defer { cli.remove() }
        let dry = try cli.run("enrich", "floyd", "--dry-run", "--overwrite")
        #expect(dry.output.contains("  label: My Label -> Harvest\n"), "\(dry.output)")
        #expect(try cli.run("enrich", "id:floyd", "--overwrite").status == 0)
        #expect(try Self.album(cli, "floyd")["label"] as? String == "Harvest")
        #expect(try Self.album(cli, "discogs:249504")["label"] == nil, "the query chose one album")
    }

    @Test func offlineSendsNoRequestAndUsesOnlyWhatTheServicesAnsweredBefore() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let cli = try Self.library(local)
        defer { cli.remove() }
        let unasked = try cli.run("enrich", "--offline")
        #expect(unasked.status == 0 && unasked.output.contains("Enrich: 3 looked up, 0 enriched."), "\(unasked.output)")
        #expect(local.server.requests.isEmpty, "offline, nothing asked")

        #expect(try cli.run("enrich").status == 0)
        let asked = local.server.requests.count
        #expect(try cli.run("undo").status == 0)
        let offline = try cli.run("enrich", "--offline")
        #expect(offline.output.contains("Enrich: 3 looked up, 2 enriched"), "\(offline.output)")
        #expect(!offline.output.contains("Requests:"), "\(offline.output)")
        #expect(local.server.requests.count == asked, "the answers came from the library's lookup cache")
        #expect(try Self.album(cli, "floyd")["catalogNumber"] as? String == "SHVL 804")
        // A second run online asks nothing either: every album was answered (the miss stands).
        #expect(try cli.run("enrich").status == 0)
        #expect(local.server.requests.count == asked)
    }

    @Test func theStageEnrichesImportedAlbumsWhenListed() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let cli = try Self.library(local, extra: "import: {stages: [validate, normalize, dedupe, enrich, covers]}")
        defer { cli.remove() }
        let pipeline = try cli.run("pipeline", "show").output
        #expect(pipeline.contains("4. enrich"), "\(pipeline)")
        let floyd = try Self.album(cli, "floyd")
        #expect(floyd["catalogNumber"] as? String == "SHVL 804" && floyd["label"] as? String == "My Label", "\(floyd)")
        #expect(try Self.album(cli, "discogs:249504")["label"] as? String == "RCA")
        #expect(try cli.run("undo").status == 0)
        #expect(try cli.run("list", "--json").output.contains("\"albums\":[]"), "the import, enriched, is one step")
    }

    @Test func theStageIsOffByDefault() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let cli = try Self.library(local)
        defer { cli.remove() }
        #expect(!(try cli.run("pipeline", "show").output.contains("enrich")))
        #expect(local.server.requests.isEmpty)
        #expect(try Self.album(cli, "floyd")["catalogNumber"] == nil)
    }

    @Test func enrichRemembersItsAnswersAndFillsTheAlbumsInOneSave() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let cli = try Self.library(local)
        defer { cli.remove() }
        let run = try cli.run("--events", "-", "enrich")
        #expect(run.status == 0, "\(run.error)")
        let saves = run.error.split(separator: "\n").filter { $0.contains(#""event":"library.saved""#) }
        #expect(saves.count == 1, "answers and albums are one save: \(saves)")
        // The one save remembered the answers: a second run asks nothing.
        let asked = local.server.requests.count
        #expect(try cli.run("enrich").status == 0)
        #expect(local.server.requests.count == asked)
    }

    @Test func theStageRemembersWhatTheServicesAnsweredAndSaysHowManyRequestsWent() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        defer { Task { await local.stop() } }
        let cli = try CLIRunner()
        defer { cli.remove() }
        try local.configure(cli, extra: "import: {stages: [validate, normalize, dedupe, enrich, covers]}")
        #expect(try cli.run("init").status == 0)
        let imported = try cli.run("import", Self.albumList(in: cli))
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("Imported: 3 added, 0 skipped, 0 replaced, 0 kept as copies.\nRequests: discogs 1, musicbrainz 4.\n"), "\(imported.output)")
        let asked = local.server.requests.count
        #expect(asked == 5)
        let run = try cli.run("enrich")
        #expect(run.status == 0, "\(run.error)")
        #expect(local.server.requests.count == asked, "the import's answers were remembered: \(local.server.requests.dropFirst(asked).map(\.path))")
        #expect(!run.output.contains("Requests:"), "\(run.output)")
    }

    @Test func aServiceThatCannotBeAskedIsNamedPerAlbumAndTheRunExitsNonZero() async throws {
        let local = try await LocalServices.start { request in
            // MusicBrainz answers the search for the album nobody knows with a page of HTML.
            if request.path == "/ws/2/release", request.query["query"]?.contains("Nobody") == true {
                return .init(.ok, ["Content-Type": "text/html"], Array("<html><body>Down for maintenance</body></html>".utf8))
            }
            return await StandardAnswers.answer(request)
        }
        defer { Task { await local.stop() } }
        let cli = try Self.library(local)
        defer { cli.remove() }
        let run = try cli.run("enrich")
        #expect(run.status == 3, "done in part: \(run.output)")
        // The last line (a slow machine may show progress lines before it).
        let warning = "warning: 1 album could not be looked up; what the others gave is kept, as one step (run the command again to retry them)\n"
        #expect(run.error.hasSuffix("\n" + warning) || run.error == warning, "\(run.error)")
        #expect(!run.error.contains("error:"), "the library changed: no error line (SPEC 7)")
        #expect(run.output.contains("Enrich: 3 looked up, 2 enriched ("), "\(run.output)")
        #expect(run.output.contains(" 1 failed.\n"), "\(run.output)")
        #expect(run.output.contains("  failed: nothing: musicbrainz "), "\(run.output)")
        #expect(run.output.contains("the answer is not the JSON expected"), "\(run.output)")
        // What the others gave is kept, as one step.
        #expect(try Self.album(cli, "floyd")["catalogNumber"] as? String == "SHVL 804")
        #expect(try Self.album(cli, "discogs:249504")["label"] as? String == "RCA")
    }

    @Test func progressIsABarOnATerminalAndPlainLinesOtherwise() async throws {
        // Twelve albums no one knows, each search answered in 150 ms: about two seconds.
        let local = try await LocalServices.start { request in
            var answer = await StandardAnswers.answer(request)
            if request.path == "/ws/2/release" { answer.delay = .milliseconds(150) }
            return answer
        }
        defer { Task { await local.stop() } }
        let cli = try CLIRunner()
        defer { cli.remove() }
        try local.configure(cli)
        #expect(try cli.run("init").status == 0)
        let list = cli.folder.appendingPathComponent("unknown.json")
        let albums = (1...12).map { #"{"title": "Unknown \#($0)", "artist": "Nobody"}"# }
        try Data("[\(albums.joined(separator: ","))]".utf8).write(to: list)
        #expect(try cli.run("import", list.path).status == 0)

        let session = try TerminalSession(cli, ["enrich"], columns: 80)
        #expect(session.status == 0, "\(session.screen)")
        let bar = try #require(session.screen.split(separator: "\n").first { $0.contains("\r\u{1B}[Kenriching") }, "\(session.screen.debugDescription)")
        let drawings = bar.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
        #expect(drawings.count >= 2, "redrawn in place: \(drawings)")
        #expect(drawings.allSatisfy { $0.hasPrefix("enriching [") && $0.count <= 79 }, "\(drawings)")
        #expect(drawings.last?.contains("100%") == true && drawings.last?.contains("12/12") == true, "\(drawings)")
        #expect(session.screen.contains("12/12") && session.screen.contains("\nEnrich: 12 looked up, 0 enriched."), "the bar ends its line: \(session.screen.debugDescription)")

        // Piped: plain lines, once the work has taken a second; asked again (the misses stand: a fresh library).
        let piped = try CLIRunner()
        defer { piped.remove() }
        try local.configure(piped)
        #expect(try piped.run("init").status == 0)
        #expect(try piped.run("import", list.path).status == 0)
        let plain = try piped.run("enrich")
        #expect(plain.status == 0, "\(plain.error)")
        let lines = plain.error.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("enriching: ") }, "\(plain.error)")
        #expect(!plain.error.contains("\r") && !plain.error.contains("\u{1B}"))
    }
}
