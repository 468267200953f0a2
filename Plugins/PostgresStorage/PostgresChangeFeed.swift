import AlbumKit
import AlbumKitRowStore
import PostgresNIO

/// Saves are told to every listener through PostgreSQL's `LISTEN`/`NOTIFY`: a writer sends
/// `NOTIFY albumkit_changes, '<generation>'` inside its transaction (``PostgresDriver/saving(_:generation:)``,
/// so it is delivered only when the save commits), and each stream holds one connection of
/// its own that listens. A stream also yields once as soon as it listens, for the saves made
/// while its connection was being opened.
extension PostgresStorage: StorageChangeFeed {
    public func changes() -> AsyncThrowingStream<Void, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Void.self)
        let listener = Task { [driver = store.driver] in
            do {
                // Its own connection, never given to the pool: it stays in LISTEN.
                let connection = try await driver.connect()
                defer { driver.close(connection) }
                try await connection.connection.listen(on: PostgresDriver.changeChannel) { notifications in
                    // Listening from here on. A save committed after the stream started but
                    // before LISTEN ran sent its NOTIFY to no one: tell it now.
                    continuation.yield()
                    for try await _ in notifications { continuation.yield() }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: driver.describe(error))
            }
        }
        continuation.onTermination = { _ in listener.cancel() }
        return stream
    }
}
