import AlbumKitTesting
import Foundation
import SQLiteStorage
import Testing

/// The lookup answers live in a table of their own (schema version 9), not in the memento
/// every command reads; a library written before it moves them there on first use.
@Suite struct SQLiteLookupTableTests {
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/release-0.3-ce9d6ed/sqlite/library.sqlite")

    /// The schema version, the memento and the answers' table of the library in `file`, read by Python's sqlite3.
    static func inspect(_ file: URL) throws -> LookupTableChecks.Inspection {
        let script = """
            import json, sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            tables = {name for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            rows = dict(c.execute("SELECT key, answer FROM albumkit_lookups")) if "albumkit_lookups" in tables else {}
            state = c.execute("SELECT state FROM albumkit_state").fetchone()[0]
            print(json.dumps({"version": c.execute("SELECT version FROM schemaVersion").fetchone()[0],
                              "memento": state if isinstance(state, str) else state.decode(), "table": rows}))
            """
        let result = try runProgram("/usr/bin/env", ["python3", "-c", script, file.path])
        guard result.status == 0, let found = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
            let version = found["version"] as? Int, let memento = found["memento"] as? String, let table = found["table"] as? [String: String]
        else { throw CompatFailure("cannot inspect \(file.path): \(result.output)") }
        return LookupTableChecks.Inspection(schemaVersion: version, memento: memento, table: table)
    }

    @Test func answersGoToTheirTableNotTheMemento() async throws {
        let folder = try TemporaryFolder("sqlite-lookups")
        defer { folder.remove() }
        let file = folder.path("library.sqlite")
        try await LookupTableChecks.answersGoToTheirTable(SQLiteStorage(file: file)) { try Self.inspect(file) }
    }

    @Test func aVersion8LibraryMovesItsAnswersToTheTable() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = cli.libraryFolder.appendingPathComponent("library.sqlite")
        try FileManager.default.createDirectory(at: cli.libraryFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture, to: file)
        try LookupTableChecks.expectAnswersMoved(cli, environment: ["ALBUMKIT_STORAGE_BACKEND": "sqlite"], currentVersion: 10) {
            try Self.inspect(file)
        }
    }
}
