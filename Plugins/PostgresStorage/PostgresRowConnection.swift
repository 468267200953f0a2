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

    /// The keys as one array in one row: a row costs the client more than its bytes (a
    /// message, a step of the row sequence), and a listing that matched many albums spent
    /// more reading a row a key than on its matches (BENCHMARKS.md). No albums give an empty array.
    public func everyKey() async throws -> [Double] {
        var keys: [Double] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: Self.everyKeyInOneRow), logger: logger) {
            keys = try row.makeRandomAccess()[0].decode([Double].self)
        }
        return keys
    }

    /// The digests as one array of text: one statement for any number of them, where an
    /// argument a digest made the server parse and bind each.
    public func storedCoverKeys(among digests: [String]) async throws -> [(sha256: String, fileExtension: String)] {
        var bindings = PostgresBindings()
        bindings.append(digests)
        var rows: [(sha256: String, fileExtension: String)] = []
        let sql = Self.storedCoverKeysInArray.replacingOccurrences(of: "?", with: "$1")
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
            let columns = row.makeRandomAccess()
            rows.append((try columns[0].decode(String.self), try columns[1].decode(String.self)))
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
        // Room for every argument at once: the bindings reserve 128 bytes an argument, and a
        // batch of covers (256 KiB) outgrowing that would be copied at every doubling.
        let bytes = arguments.reduce(0) { $0 + 4 + $1.bindingSize }
        var bindings = PostgresBindings(capacity: max(arguments.count, (bytes + 127) / 128))
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

extension SQLValue {
    /// The bytes the value takes as a binary binding, without its length.
    fileprivate var bindingSize: Int {
        switch self {
        case .null: 0
        case .integer, .real: 8
        case .text(let text): text.utf8.count
        case .blob(let data): data.count
        }
    }
}
