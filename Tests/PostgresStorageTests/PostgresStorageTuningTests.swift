import AlbumKit
import AlbumKitTesting
import Foundation
import PostgresStorage
import Testing

/// A new library stores cover bytes out of line as they are: PostgreSQL does not try to
/// compress images, which are compressed already.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresStorageTuningTests {
    @Test func aNewLibraryStoresCoverBytesWithoutCompressingThem() async throws {
        let url = try await TestServer.freshDatabase()
        let storage = try PostgresStorage(url: url)
        try await storage.create()
        #expect(try psql(url, "SELECT attstorage FROM pg_attribute WHERE attrelid = 'albumkit_covers'::regclass AND attname = 'bytes'") == "e")

        // Bytes that would compress well: stored whole all the same, and read back unchanged.
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 40_000))
        let key = CoverKey(bytes: bytes, fileExtension: "png")
        #expect(try await storage.covers.insert([(key, bytes)]) == [key])
        #expect(try await storage.covers.data(for: key) == bytes)
        let stored = try psql(url, "SELECT pg_column_size(bytes) FROM albumkit_covers WHERE sha256 = '\(key.sha256)'")
        #expect((Int(stored) ?? 0) >= bytes.count, "stored in \(stored) bytes: compressed")
    }

    private func psql(_ url: String, _ query: String) throws -> String {
        let result = try runProgram("/usr/bin/psql", [url, "-At", "-c", query])
        #expect(result.status == 0, "\(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
