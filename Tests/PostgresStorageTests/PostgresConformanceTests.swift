import AlbumKit
import AlbumKitTesting
import Foundation
import PostgresStorage
import Testing

/// The backend conformance suite, run by `postgres`, each check in a database of its own.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresConformanceTests {
    @Test(arguments: StorageBackendCompatTest.Check.allCases)
    func conformance(_ check: StorageBackendCompatTest.Check) async throws {
        let url = try await TestServer.freshDatabase()
        try await StorageBackendCompatTest(damage: Self.damaging(url)) { try PostgresStorage(url: url, lockTimeout: $0) }.run(check)
    }

    /// Breaks the stored memento with `psql`; the fingerprint is every table's rows.
    static func damaging(_ url: String) -> @Sendable (any StorageBackend) async throws -> @Sendable () throws -> Data {
        { _ in
            _ = try runProgram("/usr/bin/psql", [url, "-q", "-c", "UPDATE albumkit_state SET state = 'not json', generation = generation + 1 WHERE id = 1"])
            return {
                Data(try runProgram("/usr/bin/psql", [url, "-At", "-c", "SELECT state FROM albumkit_state; SELECT id, title FROM albumkit_albums ORDER BY sort_key"]).output.utf8)
            }
        }
    }
}
