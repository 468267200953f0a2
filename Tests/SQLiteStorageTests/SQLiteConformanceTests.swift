import AlbumKit
import AlbumKitTesting
import Foundation
import SQLiteStorage
import Testing

/// The backend conformance suite, run by `sqlite`.
@Suite struct SQLiteConformanceTests {
    @Test(arguments: StorageBackendCompatTest.Check.allCases)
    func conformance(_ check: StorageBackendCompatTest.Check) async throws {
        let folder = try TemporaryFolder("sqlite-conformance")
        defer { folder.remove() }
        try await StorageBackendCompatTest { SQLiteStorage(file: folder.path("library.sqlite")) }.run(check)
    }

    @Test func aSecondWriterGivesUpAfterTheLockTimeout() async throws {
        let folder = try TemporaryFolder("sqlite-lock")
        defer { folder.remove() }
        let file = folder.path("library.sqlite")
        try await SQLiteStorage(file: file).create()
        let first = try await SQLiteStorage(file: file).beginWrite()
        let error = await #expect(throws: AlbumKitError.self) { _ = try await SQLiteStorage(file: file, lockTimeout: 0.3).beginWrite() }
        #expect(error?.kind == .lockTimeout)
        await first.finish()
        await try SQLiteStorage(file: file, lockTimeout: 0.3).beginWrite().finish()
    }
}
