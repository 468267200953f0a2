import AlbumKitRowStore
import Foundation
import Logging
import PostgresNIO

/// One logged-in connection to the server, speaking the row store's statements: each `?`
/// becomes `$1`, `$2`, … and each argument a binary binding.
public struct PostgresRowConnection: RowConnection {
    let connection: PostgresConnection
    let logger: Logger

    public func execute(_ sql: String, _ arguments: [SQLValue]) async throws {
        try await connection.query(try Self.query(sql, arguments), logger: logger)
    }

    public func query<Row: Sendable>(
        _ sql: String, _ arguments: [SQLValue], _ read: @escaping @Sendable (any SQLRow) throws -> Row
    ) async throws -> [Row] {
        var rows: [Row] = []
        for try await row in try await connection.query(try Self.query(sql, arguments), logger: logger) {
            rows.append(try read(PostgresSQLRow(row: row.makeRandomAccess())))
        }
        return rows
    }

    private static func query(_ sql: String, _ arguments: [SQLValue]) throws -> PostgresQuery {
        var numbered = ""
        numbered.reserveCapacity(sql.utf8.count + arguments.count * 4)
        var next = 0
        for character in sql {
            if character == "?" {
                next += 1
                numbered += "$\(next)"
            } else {
                numbered.append(character)
            }
        }
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(integer)
            case .real(let real): bindings.append(real)
            case .text(let text): bindings.append(text)
            case .blob(let data): try bindings.append(data)
            }
        }
        return PostgresQuery(unsafeSQL: numbered, binds: bindings)
    }
}

/// A row of a result, read by column number.
private struct PostgresSQLRow: SQLRow {
    let row: PostgresRandomAccessRow

    func text(_ column: Int) throws -> String { try row[column].decode(String.self) }
    func optionalText(_ column: Int) throws -> String? { try row[column].decode(String?.self) }
    func real(_ column: Int) throws -> Double { try row[column].decode(Double.self) }
    func integer(_ column: Int) throws -> Int64 { try row[column].decode(Int64.self) }
    func bytes(_ column: Int) throws -> Data { try row[column].decode(Data.self) }
}
