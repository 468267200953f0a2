import AlbumKit
import AlbumKitTesting
import Foundation
import SQLiteStorage
import Testing

/// A file that is not a library this build can read is refused, named, and left untouched.
@Suite struct SQLiteDamageTests {
    private func expectRefused(_ file: URL, containing words: String) async throws {
        let before = try Data(contentsOf: file)
        let storage = SQLiteStorage(file: file)
        for attempt in 0..<2 {
            do {
                if attempt == 0 { _ = try await storage.load() } else { _ = try await storage.beginWrite() }
                Issue.record("reading \(file.lastPathComponent) must fail")
            } catch let error as AlbumKitError {
                #expect(error.kind == .unreadableInput)
                #expect(error.description.contains(file.path) && error.description.contains(words), "\(error)")
            }
        }
        #expect(try Data(contentsOf: file) == before)
    }

    @Test func aFileThatIsNotSQLiteIsRefused() async throws {
        let folder = try TemporaryFolder("sqlite-damage")
        defer { folder.remove() }
        let file = folder.path("library.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: file)
        try await expectRefused(file, containing: "not a readable SQLite library")
    }

    @Test func aLibraryFromANewerAlbumkitIsRefused() async throws {
        let folder = try TemporaryFolder("sqlite-newer")
        defer { folder.remove() }
        let file = folder.path("library.sqlite")
        try await SQLiteStorage(file: file).create()
        let result = try Process.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE schemaVersion SET version = 99'); c.commit(); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()", file.path])
        result.waitUntilExit()
        #expect(result.terminationStatus == 0)
        try await expectRefused(file, containing: "newer albumkit")
    }
}
