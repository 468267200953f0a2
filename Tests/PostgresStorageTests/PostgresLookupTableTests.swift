import AlbumKitTesting
import Foundation
import PostgresStorage
import Testing

/// The lookup answers live in a table of their own (schema version 9), not in the memento
/// every command reads; a database written before it moves them there on first use.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresLookupTableTests {
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/release-0.3-ce9d6ed/postgres.sql")

    /// The schema version, the memento and the answers' table of the database at `url`, read by `psql`.
    static func inspect(_ url: String) throws -> LookupTableChecks.Inspection {
        func value(_ query: String) throws -> String {
            let found = try runProgram("/usr/bin/psql", [url, "-At", "-c", query])
            guard found.status == 0 else { throw CompatFailure("cannot inspect \(url): \(found.output)") }
            return found.output.hasSuffix("\n") ? String(found.output.dropLast()) : found.output
        }
        let hasTable = try value("SELECT to_regclass('albumkit_lookups') IS NOT NULL") == "t"
        let rows = hasTable ? try value("SELECT coalesce(json_object_agg(key, answer), '{}') FROM albumkit_lookups") : "{}"
        guard let version = Int(try value("SELECT version FROM albumkit_schema")),
            let table = try JSONSerialization.jsonObject(with: Data(rows.utf8)) as? [String: String]
        else { throw CompatFailure("cannot inspect \(url)") }
        return LookupTableChecks.Inspection(schemaVersion: version, memento: try value("SELECT state FROM albumkit_state WHERE id = 1"), table: table)
    }

    @Test func answersGoToTheirTableNotTheMemento() async throws {
        let url = try await TestServer.freshDatabase()
        try await LookupTableChecks.answersGoToTheirTable(try PostgresStorage(url: url)) { try Self.inspect(url) }
    }

    @Test func aVersion8DatabaseMovesItsAnswersToTheTable() async throws {
        let url = try await TestServer.freshDatabase()
        let cli = try CLIRunner()
        defer { cli.remove() }
        // Without ON_ERROR_STOP: a server without pg_trgm refuses the dump's extension and
        // trigram indexes, and loads the rest (the inspection checks what came in).
        let loaded = try runProgram("/usr/bin/psql", [url, "-q", "-f", Self.fixture.path])
        #expect(loaded.status == 0, "\(loaded.output)")
        try LookupTableChecks.expectAnswersMoved(
            cli, environment: ["ALBUMKIT_STORAGE_BACKEND": "postgres", "ALBUMKIT_STORAGE_URL": url], currentVersion: 10
        ) { try Self.inspect(url) }
    }
}
