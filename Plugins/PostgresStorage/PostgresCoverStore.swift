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
        try await value(Data.self, "SELECT bytes FROM albumkit_covers WHERE sha256 = \(key.sha256) AND file_extension = \(key.fileExtension)")
    }

    func contains(_ key: CoverKey) async throws -> Bool {
        try await value(Int.self, "SELECT 1 FROM albumkit_covers WHERE sha256 = \(key.sha256) AND file_extension = \(key.fileExtension)") != nil
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
        try await value(
            Int.self, "DELETE FROM albumkit_covers WHERE sha256 = \(key.sha256) AND file_extension = \(key.fileExtension) RETURNING length(bytes)"
        ) ?? 0
    }

    /// The one value `query` returns, or nil when it returns no row.
    private func value<T: PostgresDecodable & Sendable>(_ type: T.Type, _ query: PostgresQuery) async throws -> T? {
        try await sessions.with { connection in
            var found: T?
            for try await value in try await connection.query(query, logger: sessions.log).decode(T.self) { found = value }
            return found
        }
    }
}
