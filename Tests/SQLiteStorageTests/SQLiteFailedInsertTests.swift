import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

@testable import SQLiteStorage

/// SQLite's inserts end the whole transaction on a failed constraint (`INSERT OR ROLLBACK`,
/// ``SQLiteDriver/insertVerb``): a save whose insert fails in the middle of its runs leaves the
/// library as it was, writes nothing after the engine's own rollback, and the next writer gets
/// the lock and saves.
@Suite struct SQLiteFailedInsertTests {
    @Test func aSaveWhoseInsertFailsMidwayLeavesTheLibraryAsItWas() async throws {
        let folder = try TemporaryFolder("sqlite-failed-insert")
        defer { folder.remove() }
        let storage = SQLiteStorage(file: folder.path("library.sqlite"))
        let stored = CompatFixtures.albums(count: 10)
        try await storage.create(holding: stored)

        // 1 200 new albums, the 700th of which takes a stored album's id: the second of the
        // run's multi-row inserts fails on the id's uniqueness, after the first went in.
        var run = try (0..<1_200).map { try Album(id: .generate(), title: "New \($0)", artist: "A") }
        run[700] = try Album(id: stored[3].id, title: "Clash", artist: "A")
        let error = await #expect(throws: AlbumKitError.self) {
            try await storage.withWriter { writer, snapshot in
                try await writer.save(snapshot, change: StoredChange(albums: .appending(AlbumRun(run), after: [])))
            }
        }
        #expect(try await storage.load().albums == stored, "\(String(describing: error))")

        let more = try (0..<3).map { try Album(id: .generate(), title: "Later \($0)", artist: "B") }
        try await storage.withWriter { writer, snapshot in
            try await writer.save(snapshot, change: StoredChange(albums: .appending(AlbumRun(more), after: [])))
        }
        #expect(try await storage.load().albums == stored + more)
    }
}
