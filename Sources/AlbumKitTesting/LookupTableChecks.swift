import AlbumKit
import Foundation

/// What a backend that keeps the lookup answers in a table of their own (a row store) must do
/// beyond the conformance suite, which any backend passes wherever it keeps them: answers a
/// change records land in the table, not in the memento that every command reads; and a
/// library written before the table (its answers inside the memento) moves them there on its
/// first use, every answer kept. Each engine's tests run these with their own way of looking
/// inside the store (``Inspection``).
public enum LookupTableChecks {
    /// What the store holds, seen from outside.
    public struct Inspection: Sendable {
        /// The schema version it is at.
        public var schemaVersion: Int
        /// The memento as stored (its JSON text).
        public var memento: String
        /// The rows of the answers' table, key → answer as JSON text (none before it exists).
        public var table: [String: String]

        /// A store at `schemaVersion` whose memento is `memento` and whose table holds `table`.
        public init(schemaVersion: Int, memento: String, table: [String: String]) {
            self.schemaVersion = schemaVersion
            self.memento = memento
            self.table = table
        }

        /// The answers inside the memento.
        func mementoAnswers() throws -> [String: LookupAnswer] {
            try JSONDecoder().decode(LibraryState.self, from: Data(memento.utf8)).lookups
        }

        /// The answers of the table.
        func tableAnswers() throws -> [String: LookupAnswer] {
            try table.mapValues { try JSONDecoder().decode(LookupAnswer.self, from: Data($0.utf8)) }
        }
    }

    /// Records 1 000 answers, each an enriched album's facts (as `enrich` remembers them), and
    /// checks through `inspect` that the table holds them and the memento is as small as before;
    /// a later process reads them back by key.
    public static func answersGoToTheirTable(_ backend: any StorageBackend, inspect: () async throws -> Inspection) async throws {
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        try await library.add(AlbumRecord(title: "Low", artist: "David Bowie", year: "1977"))
        let before = try await inspect()
        var answers: [String: LookupAnswer] = [:]
        // An enriched album's facts as a release has them: every kind of field, 12 tracks, a
        // short note. (The album at SPEC 1's limits, 1 000 tracks and 32 KiB of notes, made
        // 100 MB of answers that pinned a thread of the test process for half a minute.)
        var facts = CompatFixtures.wholeAlbums()[0]
        facts.details.tracks = Array(facts.details.tracks.prefix(12))
        facts.details[.notes] = "Recorded at the Château d'Hérouville.\nMixed in Berlin."
        for index in 0..<1_000 {
            answers["enrich.musicbrainz release:\(index)"] = LookupAnswer(at: Date(timeIntervalSince1970: 1_795_000_000 + Double(index)), album: facts)
        }
        try await library.recordCovers([:], lookups: answers)
        let after = try await inspect()
        try expect(try after.mementoAnswers().isEmpty, "the memento must hold no answers; it holds \(try after.mementoAnswers().count)")
        try expect(
            after.memento.utf8.count <= before.memento.utf8.count + 16,
            "the memento grew from \(before.memento.utf8.count) to \(after.memento.utf8.count) bytes with 1 000 answers recorded")
        try expect(try after.tableAnswers() == answers, "the table must hold the 1 000 answers recorded, not \(after.table.count)")
        let asked = ["enrich.musicbrainz release:3", "enrich.musicbrainz release:999"]
        try expect(
            try await Library.open(backend, hub: NotificationHub()).lookupAnswers(asked) == answers.filter { asked.contains($0.key) },
            "a later process must read the answers by key")
    }

    /// Opens the library that `environment` selects — written at schema version 8 by
    /// `Tests/Fixtures/release-0.3-ce9d6ed/make.py`, the answers of `covers fetch` and `enrich`
    /// in its memento — with `cli`, and checks through `inspect` that its first use moves every
    /// answer into the table at `currentVersion`; then that `covers status` names the service
    /// that found each cover (the answers read by key) and that an export's `state.json`
    /// carries every answer.
    public static func expectAnswersMoved(
        _ cli: CLIRunner, environment: [String: String], currentVersion: Int, inspect: () throws -> Inspection
    ) throws {
        let old = try inspect()
        let kept = try old.mementoAnswers()
        try expect(old.schemaVersion == 8 && old.table.isEmpty && kept.count == 5, "the fixture must be at version 8 with 5 answers in its memento")
        let listed = try cli.run(["list", "--format", "$title|$label"], environment: environment)
        try expect(listed.output == "Low|Harvest\n\"Heroes\"|Harvest\n", "the old library must list as it was: \(listed.output) \(listed.error)")
        let upgraded = try inspect()
        try expect(upgraded.schemaVersion == currentVersion, "after its first use the library must be at version \(currentVersion), not \(upgraded.schemaVersion)")
        try expect(try upgraded.mementoAnswers().isEmpty, "the upgraded memento must hold no answers")
        try expect(try upgraded.tableAnswers() == kept, "the table must hold the memento's 5 answers exactly, not \(upgraded.table.keys.sorted())")
        let config = cli.folder.appendingPathComponent("lookups.yaml")
        try "covers: {fetchers: [coverartarchive]}\n".write(to: config, atomically: true, encoding: .utf8)
        let status = try cli.run(["--config", config.path, "covers", "status"], environment: environment)
        try expect(
            status.status == 0 && status.output.components(separatedBy: "found by coverartarchive").count == 3,
            "covers status must name the service that found each of the two covers: \(status.output) \(status.error)")
        let bundle = cli.folder.appendingPathComponent("backup.tar.gz")
        let exported = try cli.run(["export", bundle.path], environment: environment)
        try expect(exported.status == 0, "export failed: \(exported.error)")
        let unpacked = cli.folder.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        let untar = try runProgram("/usr/bin/env", ["tar", "-xzf", bundle.path, "-C", unpacked.path, "state.json"])
        try expect(untar.status == 0, "tar could not read state.json from the export: \(untar.output)")
        let state = try JSONDecoder().decode(StateFile.self, from: Data(contentsOf: unpacked.appendingPathComponent("state.json")))
        try expect(state.lookups == kept, "the export's state.json must carry the 5 answers, not \(state.lookups.keys.sorted())")
    }

    private static func expect(_ condition: Bool, _ message: @autoclosure () throws -> String) throws {
        if !condition { throw CompatFailure(try message()) }
    }
}
