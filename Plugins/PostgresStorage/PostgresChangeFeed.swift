import AlbumKit
import PostgresNIO

/// Saves are told to every listener through PostgreSQL's `LISTEN`/`NOTIFY`: a writer sends
/// `NOTIFY albumkit_changes, '<generation>'` inside its transaction (so it is delivered only
/// when the save commits), and each stream holds one connection of its own that listens.
extension PostgresStorage: StorageChangeFeed {
    /// The channel saves are announced on.
    static let changeChannel = "albumkit_changes"

    public func changes() -> AsyncThrowingStream<Void, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Void.self)
        let listener = Task { [sessions] in
            do {
                // Its own connection, never returned to the pool: it stays in LISTEN.
                let connection = try await sessions.lease()
                defer { connection.retire() }
                try await connection.listen(on: Self.changeChannel) { notifications in
                    for try await _ in notifications { continuation.yield() }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: sessions.describe(error))
            }
        }
        continuation.onTermination = { _ in listener.cancel() }
        return stream
    }
}
