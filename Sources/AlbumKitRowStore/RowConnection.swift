import Foundation

/// A value bound to a statement, in the few types a row store writes.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// `text`, or null for nil.
    public static func optionalText(_ text: String?) -> SQLValue { text.map { .text($0) } ?? .null }
}

/// One row of a query's result, read by column number (0-based, in the order the query
/// selects them). Each accessor throws when the column holds another type.
public protocol SQLRow {
    /// A text column.
    func text(_ column: Int) throws -> String
    /// A text column that may be null.
    func optionalText(_ column: Int) throws -> String?
    /// A floating-point column.
    func real(_ column: Int) throws -> Double
    /// An integer column.
    func integer(_ column: Int) throws -> Int64
    /// A blob column, or a text column as its UTF-8 bytes (older tables kept JSON as either).
    func bytes(_ column: Int) throws -> Data
}

/// One connection to a database, as a ``RowStore`` drives it: it says `BEGIN`, `COMMIT` and
/// every statement itself, one call per statement.
///
/// ## Implementation requirements
/// - `?` marks each argument, in order; the row store writes no `?` anywhere else, so a
///   database that numbers its parameters (`$1`) can rewrite them blindly.
/// - A call runs in whatever transaction the connection is in; nothing is committed or
///   rolled back behind the row store's back.
/// - Failures are thrown as the database reports them; the row store hands them to
///   ``RowStoreDriver/describe(_:)``.
public protocol RowConnection: Sendable {
    /// Runs one statement that returns no rows.
    func execute(_ sql: String, _ arguments: [SQLValue]) async throws
    /// Runs one query and returns its rows, each made by `read`. `read` is called once per
    /// row, in row order, one call at a time (never two at once, even from different threads):
    /// a reader may gather rows without a lock (the row store's `GatheredRuns` does).
    func query<Row: Sendable>(_ sql: String, _ arguments: [SQLValue], _ read: @escaping @Sendable (any SQLRow) throws -> Row)
        async throws -> [Row]
    /// Every album's sort key, in order (``RowStoreSQL/everyKey``). By default a row a key; an
    /// engine that hands each row over at a cost of its own may read them in fewer.
    func everyKey() async throws -> [Double]
    /// The digest and extension of each stored cover whose digest is one of `digests`. By
    /// default an argument a digest (``RowStoreSQL/storedCoverKeys(count:)``); an engine that
    /// takes a list as one argument may pass them so, and prepare one statement for any number.
    func storedCoverKeys(among digests: [String]) async throws -> [(sha256: String, fileExtension: String)]
}

extension RowConnection {
    public func everyKey() async throws -> [Double] {
        try await query(RowStoreSQL.everyKey, []) { try $0.real(0) }
    }

    public func storedCoverKeys(among digests: [String]) async throws -> [(sha256: String, fileExtension: String)] {
        try await query(RowStoreSQL.storedCoverKeys(count: digests.count), digests.map { .text($0) }) { (try $0.text(0), try $0.text(1)) }
    }

    /// ``everyKey()``'s statement as one row holding the keys in an array, empty when there are
    /// none (``RowStoreSQL/everyKeyInOneRow``), for an engine's own ``everyKey()``.
    public static var everyKeyInOneRow: String { RowStoreSQL.everyKeyInOneRow }

    /// ``storedCoverKeys(among:)``'s statement with the digests as one argument, a JSON array
    /// of strings (SQLite's `json_each`), for an engine's own ``storedCoverKeys(among:)``.
    public static var storedCoverKeysInJSON: String { RowStoreSQL.storedCoverKeysInJSON }

    /// ``storedCoverKeys(among:)``'s statement with the digests as one argument, an array of
    /// text (PostgreSQL's `= ANY`), for an engine's own ``storedCoverKeys(among:)``.
    public static var storedCoverKeysInArray: String { RowStoreSQL.storedCoverKeysInArray }

    /// The first row of a query, if any.
    public func first<Row: Sendable>(_ sql: String, _ arguments: [SQLValue] = [], _ read: @escaping @Sendable (any SQLRow) throws -> Row)
        async throws -> Row?
    {
        try await query(sql, arguments, read).first
    }
}
