import AlbumKitTesting
import Foundation
import Testing

/// A database written by albumkit 0.1 (built here with `psql` from Tests/Fixtures/
/// old-release-library.py: schema version 1, history inside the memento) opens, keeps its
/// history and is upgraded.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresOldReleaseTests {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/old-release-library.py")

    @Test func anOldReleaseDatabaseIsUpgradedWithItsHistory() async throws {
        let url = try await TestServer.freshDatabase()
        let cli = try CLIRunner()
        defer { cli.remove() }
        let sql = try runProgram("/usr/bin/env", ["python3", Self.script.path, "postgres"])
        #expect(sql.status == 0)
        let file = cli.folder.appendingPathComponent("v1.sql")
        try sql.output.write(to: file, atomically: true, encoding: .utf8)
        let built = try runProgram("/usr/bin/psql", [url, "-q", "-v", "ON_ERROR_STOP=1", "-f", file.path])
        #expect(built.status == 0, "\(built.output)")
        let environment = ["ALBUMKIT_STORAGE_BACKEND": "postgres", "ALBUMKIT_STORAGE_URL": url]
        try OldReleaseLibrary.expectUpgradedWithItsHistory(cli, environment: environment, currentVersion: 10) {
            let query = "SELECT version, CASE WHEN to_regclass('albumkit_history') IS NULL THEN 0 ELSE 1 END FROM albumkit_schema"
            let found = try runProgram("/usr/bin/psql", [url, "-At", "-F", " ", "-c", query])
            var numbers = found.output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if numbers.count == 2, numbers[1] == 1 {
                let steps = try runProgram("/usr/bin/psql", [url, "-At", "-c", "SELECT count(*) FROM albumkit_history"])
                numbers[1] = Int(steps.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            }
            guard found.status == 0, numbers.count == 2 else { throw CompatFailure("cannot inspect \(url): \(found.output)") }
            return OldReleaseLibrary.Inspection(schemaVersion: numbers[0], storedSteps: numbers[1])
        }
    }
}
