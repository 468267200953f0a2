import AlbumKit
import AlbumKitRowStore
import Foundation
import GRDB

/// One connection to the library file: each statement runs on GRDB's queue for it, outside
/// any transaction GRDB would open (the row store says `BEGIN` and `COMMIT` itself).
public struct SQLiteConnection: RowConnection {
    let queue: DatabaseQueue

    public func execute(_ sql: String, _ arguments: [SQLValue]) async throws {
        try await queue.writeWithoutTransaction { db in
            try db.cachedStatement(sql: sql).execute(arguments: Self.arguments(arguments))
        }
    }

    public func query<Row: Sendable>(
        _ sql: String, _ arguments: [SQLValue], _ read: @escaping @Sendable (any SQLRow) throws -> Row
    ) async throws -> [Row] {
        try await queue.writeWithoutTransaction { db in
            let cursor = try GRDB.Row.fetchCursor(db.cachedStatement(sql: sql), arguments: Self.arguments(arguments))
            var rows: [Row] = []
            while let row = try cursor.next() { rows.append(try read(SQLiteRow(row: row))) }
            return rows
        }
    }

    /// The digests as one JSON array: one statement prepared for any number of them, where an
    /// argument a digest made a new statement for each count, each argument bound on its own.
    /// Written by the albums' JSON writer rather than `JSONEncoder`, whose generic encoding of
    /// a few thousand strings was a visible part of a searched listing's work (BENCHMARKS.md,
    /// the measurements behind the code; the profile is in commit 57391e4's message).
    public func storedCoverKeys(among digests: [String]) async throws -> [(sha256: String, fileExtension: String)] {
        var list = AlbumObjectWriter()
        list.raw("[")
        for (index, digest) in digests.enumerated() {
            if index > 0 { list.raw(",") }
            list.string(digest)
        }
        list.raw("]")
        return try await query(Self.storedCoverKeysInJSON, [.text(String(decoding: list.take(), as: UTF8.self))]) { (try $0.text(0), try $0.text(1)) }
    }

    private static func arguments(_ values: [SQLValue]) -> StatementArguments {
        StatementArguments(values.map { value -> DatabaseValue in
            switch value {
            case .null: .null
            case .integer(let integer): integer.databaseValue
            case .real(let real): real.databaseValue
            case .text(let text): text.databaseValue
            case .blob(let data): data.databaseValue
            }
        })
    }
}

/// A GRDB row read by column number.
private struct SQLiteRow: SQLRow {
    let row: GRDB.Row

    func text(_ column: Int) throws -> String { try row.decode(String.self, atIndex: column) }
    func optionalText(_ column: Int) throws -> String? { try row.decode(String?.self, atIndex: column) }
    func real(_ column: Int) throws -> Double { try row.decode(Double.self, atIndex: column) }
    func integer(_ column: Int) throws -> Int64 { try row.decode(Int64.self, atIndex: column) }
    func bytes(_ column: Int) throws -> Data { try row.decode(Data.self, atIndex: column) }
}
