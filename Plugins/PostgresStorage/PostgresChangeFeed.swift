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
        listen(on: PostgresDriver.changeChannel, onceListening: ()) { _ in }
    }

    /// A stream of what `element` makes of each notification on `channel`, from a connection
    /// of its own that listens (never given to the pool: it stays in `LISTEN`); `first` is
    /// yielded as soon as it listens.
    func listen<Element: Sendable>(
        on channel: String, onceListening first: Element? = nil, _ element: @escaping @Sendable (PostgresNotification) -> Element
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
        let listener = Task { [driver = store.driver] in
            do {
                let connection = try await driver.connect()
                defer { driver.close(connection) }
                try await connection.connection.listen(on: channel) { notifications in
                    // Listening from here on: what was sent before reached no one.
                    if let first { continuation.yield(first) }
                    for try await notification in notifications { continuation.yield(element(notification)) }
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
