import AlbumKit
import Foundation
import GRDB

/// The covers of an ``SQLiteStorage``: blobs in table `cover`, one row per SHA-256 and
/// extension, written in their own short transaction.
struct SQLiteCoverStore: CoverStore {
    let database: SQLiteDatabase

    func put(_ bytes: Data, fileExtension: String) async throws -> CoverKey {
        let key = CoverKey(bytes: bytes, fileExtension: fileExtension)
        try await withConnection { db in
            try database.transaction(db) {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO cover (sha256, fileExtension, bytes) VALUES (?, ?, ?)",
                    arguments: [key.sha256, key.fileExtension, bytes])
            }
        }
        return key
    }

    func data(for key: CoverKey) async throws -> Data? {
        try await withConnection { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM cover WHERE sha256 = ? AND fileExtension = ?", arguments: [key.sha256, key.fileExtension])
        }
    }

    func contains(_ key: CoverKey) async throws -> Bool {
        try await withConnection { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM cover WHERE sha256 = ? AND fileExtension = ?", arguments: [key.sha256, key.fileExtension]) ?? false
        }
    }

    func keys() async throws -> [CoverKey] {
        try await withConnection { db in
            try Row.fetchAll(db, sql: "SELECT sha256, fileExtension FROM cover ORDER BY sha256, fileExtension")
                .map { CoverKey(sha256: $0[0], fileExtension: $0[1]) }
        }
    }

    func remove(_ key: CoverKey) async throws -> Int {
        try await withConnection { db in
            try database.transaction(db) {
                let arguments: StatementArguments = [key.sha256, key.fileExtension]
                let size = try Int.fetchOne(db, sql: "SELECT length(bytes) FROM cover WHERE sha256 = ? AND fileExtension = ?", arguments: arguments) ?? 0
                try db.execute(sql: "DELETE FROM cover WHERE sha256 = ? AND fileExtension = ?", arguments: arguments)
                return size
            }
        }
    }

    private func withConnection<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await database.run(try await database.shared(), body)
    }
}
