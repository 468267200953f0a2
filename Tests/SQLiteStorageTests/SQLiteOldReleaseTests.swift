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
        try OldReleaseLibrary.expectUpgradedWithItsHistory(cli, environment: ["ALBUMKIT_STORAGE_BACKEND": "sqlite"], currentVersion: 10) {
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

    /// A library file written by the release before schema version 5 (Tests/Fixtures/
    /// library-v4.sqlite, made by albumkit at 4ab5d69: Low, Heroes, Lodger; four steps, the
    /// last the update of Heroes' genre; Lodger selected) is upgraded on first use: its duplicate
    /// key's digest indexed with the order (version 6) instead of the key, its search text filled
    /// (version 8), its albums, memento and history kept.
    @Test func aVersion4LibraryIsUpgradedAndKeepsItsHistory() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = cli.libraryFolder.appendingPathComponent("library.sqlite")
        try FileManager.default.createDirectory(at: cli.libraryFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture.deletingLastPathComponent().appendingPathComponent("library-v4.sqlite"), to: file)
        let sqlite = ["ALBUMKIT_STORAGE_BACKEND": "sqlite"]
        func inspect() throws -> String {
            let script = """
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                indexes = sorted(name for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'albumkit_albums_dup%'"))
                print(c.execute("SELECT version FROM schemaVersion").fetchone()[0], c.execute("SELECT count(*) FROM albumkit_history").fetchone()[0], *indexes)
                """
            let result = try runProgram("/usr/bin/env", ["python3", "-c", script, file.path])
            #expect(result.status == 0, "\(result.output)")
            return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try inspect() == "4 4 albumkit_albums_duplicate_key")

        let listed = try cli.run(["list", "--format", "$title|$genre"], environment: sqlite)
        #expect(listed.output == "Low|\nHeroes|Art rock\nLodger|\n", "\(listed.error)")
        #expect(try inspect() == "10 4 albumkit_albums_duplicate_digest")
        // The upgrade fills the search columns (version 8): the database finds a word.
        #expect(try cli.run(["list", "--format", "$position $title", "LODG"], environment: sqlite).output == "3 Lodger\n")
        #expect(try cli.run(["list", "--format", "$position $title", "genre:rock"], environment: sqlite).output == "2 Heroes\n")
        #expect(try cli.run(["current"], environment: sqlite).output.contains("title:    Lodger"))
        let duplicate = try cli.run(["add", "--title", "low", "--artist", "DAVID BOWIE", "--year", "1977"], environment: sqlite)
        #expect(duplicate.status != 0 && duplicate.error.contains("already in the library at position 1"), "\(duplicate.error)")
        #expect(try cli.run(["undo"], environment: sqlite).status == 0)
        #expect(try cli.run(["list", "--format", "$title|$genre"], environment: sqlite).output == "Low|\nHeroes|\nLodger|\n")
        #expect(try cli.run(["redo"], environment: sqlite).status == 0)
        #expect(try cli.run(["list", "--format", "$title|$genre"], environment: sqlite).output == "Low|\nHeroes|Art rock\nLodger|\n")
    }
}
