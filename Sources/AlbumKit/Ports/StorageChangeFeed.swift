/// A storage backend that can tell when the library was saved by any writer — another
/// process or another host included — so a long-running caller (`serve`) reloads at once
/// instead of polling. Optional: backends without it are watched by polling.
///
/// ## Implementation requirements
/// - Every stream from ``changes()`` yields at least once after each save committed after
///   the stream started, by this process or any other; several saves may be told as one.
/// - The stream throws when the feed is lost (a dropped connection), so the caller can
///   start another; it ends its subscription when the consumer stops iterating.
public protocol StorageChangeFeed: Sendable {
    /// Yields after saves, as described above.
    func changes() -> AsyncThrowingStream<Void, any Error>
}
