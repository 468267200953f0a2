/// Short notices passed between every process using one library, wherever it runs — another
/// host over the same database included — through the storage: the cover events of a fetch
/// (``CoverFetchNotices``), which a library folder passes only between the processes of one
/// machine that share it. Optional: without it, notices go through the library folder.
///
/// ## Implementation requirements
/// - Every stream from ``notices()`` yields each notice posted after it started listening, by
///   any process, this one included, in the order each process posted them.
/// - ``post(_:)`` sends its notices in order; a notice longer than the storage carries (7 999
///   bytes in PostgreSQL) may be dropped.
/// - The stream throws when the feed is lost (a dropped connection), so the caller can start
///   another; it ends its subscription when the consumer stops iterating.
public protocol StorageNotices: Sendable {
    /// Posts `notices` to every listener, in order.
    func post(_ notices: [String]) async throws
    /// The notices posted from now on, as described above.
    func notices() -> AsyncThrowingStream<String, any Error>
}
