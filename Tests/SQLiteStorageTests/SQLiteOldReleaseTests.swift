import AlbumKitTesting
import Foundation
import Testing

/// A library file written by albumkit 0.1 (Tests/Fixtures/library-v1.sqlite: schema version
/// 1, history inside the memento) opens, keeps its history and is upgraded.
@Suite struct SQLiteOldReleaseTests {
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/library-v1.sqlite")

    @Test func anOldReleaseLibraryIsUpgradedWithItsHistory() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = cli.libraryFolder.appendingPathComponent("library.sqlite")
        try FileManager.default.createDirectory(at: cli.libraryFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture, to: file)
        try OldReleaseLibrary.expectUpgradedWithItsHistory(cli, environment: ["ALBUMKIT_STORAGE_BACKEND": "sqlite"], currentVersion: 5) {
            let script = """
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                tables = {name for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                steps = c.execute("SELECT count(*) FROM albumkit_history").fetchone()[0] if "albumkit_history" in tables else 0
                print(c.execute("SELECT version FROM schemaVersion").fetchone()[0], steps)
                """
            let result = try runProgram("/usr/bin/env", ["python3", "-c", script, file.path])
            let numbers = result.output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard result.status == 0, numbers.count == 2 else { throw CompatFailure("cannot inspect \(file.path): \(result.output)") }
            return OldReleaseLibrary.Inspection(schemaVersion: numbers[0], storedSteps: numbers[1])
        }
    }
}
