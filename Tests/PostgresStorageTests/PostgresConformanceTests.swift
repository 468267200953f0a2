import AlbumKit
import AlbumKitTesting
import PostgresStorage
import Testing

/// The backend conformance suite, run by `postgres`, each check in a database of its own.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresConformanceTests {
    @Test(arguments: StorageBackendCompatTest.Check.allCases)
    func conformance(_ check: StorageBackendCompatTest.Check) async throws {
        let url = try await TestServer.freshDatabase()
        try await StorageBackendCompatTest { try PostgresStorage(url: url) }.run(check)
    }

    @Test func aSecondWriterGivesUpAfterTheLockTimeout() async throws {
        let url = try await TestServer.freshDatabase()
        try await PostgresStorage(url: url).create()
        let first = try await PostgresStorage(url: url).beginWrite()
        let waiting = try PostgresStorage(url: url, lockTimeout: 0.3)
        let error = await #expect(throws: AlbumKitError.self) { _ = try await waiting.beginWrite() }
        #expect(error?.kind == .lockTimeout)
        await first.finish()
        await try waiting.beginWrite().finish()
    }
}
