import AlbumKit
import AlbumKitTesting
import Testing

@testable import PostgresStorage

/// A save by another writer (another backend on the same database stands for another
/// process) reaches a listener through `LISTEN`/`NOTIFY`, and so do another's notices.
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
                // Generous: the whole suite shares two cores; a broken feed fails all the same.
                try await Task.sleep(for: .seconds(60))
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(told, "a save after the stream listened was not told within 60 s")
    }

    /// Notices posted through one backend reach another's stream, in the order posted. The
    /// stream says nothing once it listens, so the pair is posted again until one arrives.
    @Test func noticesReachAnotherBackendInOrder() async throws {
        let url = try await TestServer.freshDatabase()
        let listener = try PostgresStorage(url: url)
        try await listener.create()
        let poster = try PostgresStorage(url: url)
        let notices = listener.notices()
        let heard = try await withThrowingTaskGroup(of: [String]?.self) { group in
            group.addTask {
                var heard: [String] = []
                for try await notice in notices {
                    guard notice == "first" || !heard.isEmpty else { continue }
                    heard.append(notice)
                    if heard.count == 2 { return heard }
                }
                return nil
            }
            group.addTask {
                for _ in 0..<300 {
                    try await poster.post(["first", "second: 'quoted' \\ and ü"])
                    try await Task.sleep(for: .milliseconds(200))
                }
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(heard == ["first", "second: 'quoted' \\ and ü"], "notices heard within 60 s: \(String(describing: heard))")
    }
}
