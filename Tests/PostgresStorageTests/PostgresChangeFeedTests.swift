import AlbumKit
import AlbumKitTesting
import Testing

@testable import PostgresStorage

/// A save by another writer (another backend on the same database stands for another
/// process) reaches a listener through `LISTEN`/`NOTIFY`.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresChangeFeedTests {
    @Test func aSaveByAnotherWriterIsTold() async throws {
        let url = try await TestServer.freshDatabase()
        let listener = try PostgresStorage(url: url)
        try await listener.create()
        let writer = try await Library.open(try PostgresStorage(url: url), hub: NotificationHub())
        let changes = listener.changes()
        let told = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                var iterator = changes.makeAsyncIterator()
                // The first yield comes once the stream listens (it covers saves made while it
                // connected); the save after it must be told by NOTIFY.
                guard try await iterator.next() != nil else { return false }
                try await writer.add(AlbumRecord(title: "Told", artist: "A"))
                return try await iterator.next() != nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(told, "a save after the stream listened was not told within 10 s")
    }
}
