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

    /// What `init` or `migrate` killed before the schema's commit leaves — a database file in
    /// WAL mode whose schema transaction never committed — is no library: reading says to run
    /// `init`, and the next create makes the library in it.
    @Test func aFileAKilledCreateLeftIsNoLibrary() async throws {
        let folder = try TemporaryFolder("sqlite-killed-create")
        defer { folder.remove() }
        let file = folder.path("library.sqlite")
        try python("c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('PRAGMA journal_mode=WAL'); c.execute('BEGIN IMMEDIATE'); c.execute('CREATE TABLE schemaVersion (version integer)'); os._exit(0)", file.path)
        #expect(FileManager.default.fileExists(atPath: file.path))
        let storage = SQLiteStorage(file: file)
        #expect(try await !storage.exists())
        do {
            _ = try await storage.load()
            Issue.record("a blank file must not load as a library")
        } catch let error as AlbumKitError {
            #expect(error.kind == .libraryState && error.description.contains("albumkit init"), "\(error)")
        }

        try await storage.create()

        #expect(try await storage.exists())
        #expect(try await storage.load().albums.isEmpty)
    }

    /// A SQLite database of another program is neither a library nor blank: refused, untouched.
    @Test func aDatabaseOfAnotherProgramIsRefusedAndKept() async throws {
        let folder = try TemporaryFolder("sqlite-foreign")
        defer { folder.remove() }
        let file = folder.path("library.sqlite")
        try python("c=sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE songs (title text)'); c.commit(); c.close()", file.path)
        try await expectRefused(file, containing: "not an albumkit library")
        do {
            try await SQLiteStorage(file: file).create()
            Issue.record("creating over another program's database must fail")
        } catch let error as AlbumKitError {
            #expect(error.kind == .libraryState, "\(error)")
        }
        try python("c=sqlite3.connect(sys.argv[1]); assert c.execute('SELECT name FROM sqlite_master').fetchall() == [('songs',)]", file.path)
    }

    private func python(_ code: String, _ file: String) throws {
        let result = try Process.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", "import os, sqlite3, sys; " + code, file])
        result.waitUntilExit()
        #expect(result.terminationStatus == 0)
    }
}
