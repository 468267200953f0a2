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
        let damage = StorageBackendCompatTest.damagingFile(folder.path("library.sqlite"))
        try await StorageBackendCompatTest(damage: damage) { SQLiteStorage(file: folder.path("library.sqlite"), lockTimeout: $0) }.run(check)
    }
}
