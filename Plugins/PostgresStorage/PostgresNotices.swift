import AlbumKit
import AlbumKitRowStore
import PostgresNIO

/// Notices (the cover events of a fetch) go to every host over the database through a
/// channel of their own, `NOTIFY albumkit_notices`, beside the saves' `albumkit_changes`:
/// each batch posted on a connection of its own (`pg_notify`, one per notice, in order), each stream
/// listening on a connection of its own, as ``changes()`` does. A stream says nothing when it
/// starts listening: notices posted before are not heard.
extension PostgresStorage: StorageNotices {
    public func post(_ notices: [String]) async throws {
        do {
            let connection = try await store.driver.connect()
            defer { store.driver.close(connection) }
            for notice in notices { try await connection.execute("SELECT pg_notify(?, ?)", [.text(PostgresDriver.noticeChannel), .text(notice)]) }
        } catch {
            throw store.driver.describe(error)
        }
    }

    public func notices() -> AsyncThrowingStream<String, any Error> {
        listen(on: PostgresDriver.noticeChannel) { $0.payload }
    }
}
