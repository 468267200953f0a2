import AlbumKit
import Foundation
import PostgresNIO

/// The covers of a ``PostgresStorage``: `bytea` in table `albumkit_covers`, one row per
/// SHA-256 and extension; each call is one statement, atomic by itself.
struct PostgresCoverStore: CoverStore {
    let sessions: PostgresSessions

    func put(_ bytes: Data, fileExtension: String) async throws -> CoverKey {
        let key = CoverKey(bytes: bytes, fileExtension: fileExtension)
        try await sessions.with { connection in
            try await connection.query(
                "INSERT INTO albumkit_covers (sha256, file_extension, bytes) VALUES (\(key.sha256), \(key.fileExtension), \(bytes)) ON CONFLICT DO NOTHING",
                logger: sessions.log)
        }
        return key
    }

    func data(for key: CoverKey) async throws -> Data? {
        try await sessions.with { connection in
            let rows = try await connection.query(
                "SELECT bytes FROM albumkit_covers WHERE sha256 = \(key.sha256) AND file_extension = \(key.fileExtension)",
                logger: sessions.log)
            var found: Data?
            for try await bytes in rows.decode(Data.self) { found = bytes }
            return found
        }
    }

    func contains(_ key: CoverKey) async throws -> Bool {
        try await sessions.with { connection in
            let rows = try await connection.query(
                "SELECT count(*) FROM albumkit_covers WHERE sha256 = \(key.sha256) AND file_extension = \(key.fileExtension)",
                logger: sessions.log)
            var count = 0
            for try await value in rows.decode(Int.self) { count = value }
            return count > 0
        }
    }

    func keys() async throws -> [CoverKey] {
        try await sessions.with { connection in
            let rows = try await connection.query(
                "SELECT sha256, file_extension FROM albumkit_covers ORDER BY sha256, file_extension", logger: sessions.log)
            var keys: [CoverKey] = []
            for try await (sha256, fileExtension) in rows.decode((String, String).self) {
                keys.append(CoverKey(sha256: sha256, fileExtension: fileExtension))
            }
            return keys
        }
    }

    func remove(_ key: CoverKey) async throws -> Int {
        try await sessions.with { connection in
            let rows = try await connection.query(
                "DELETE FROM albumkit_covers WHERE sha256 = \(key.sha256) AND file_extension = \(key.fileExtension) RETURNING length(bytes)",
                logger: sessions.log)
            var size = 0
            for try await value in rows.decode(Int.self) { size = value }
            return size
        }
    }
}
