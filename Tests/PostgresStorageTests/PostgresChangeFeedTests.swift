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
        let told = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for try await _ in listener.changes() { return true }
                return false
            }
            group.addTask {
                // The listener subscribes on a connection of its own: save until it hears one.
                for index in 0..<100 {
                    try await writer.add(AlbumRecord(title: "Told \(index)", artist: "A"))
                    try await Task.sleep(for: .milliseconds(200))
                }
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(told, "no notification within 100 saves")
    }
}
