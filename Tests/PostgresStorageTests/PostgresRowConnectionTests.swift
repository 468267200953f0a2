import AlbumKit
@testable import AlbumKitRowStore
import AlbumKitTesting
import Foundation
@testable import PostgresStorage
import Testing

/// PostgreSQL reads every sort key in one row (an array of the ordered keys): it gives what the
/// row store's row-a-key statement gives, with no albums (as a new library's upgrade to the
/// shared layout reads them) and with some.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresRowConnectionTests {
    @Test func everyKeyIsTheKeysInOrderWithNoAlbumsAndWithSome() async throws {
        let url = try await TestServer.freshDatabase()
        let storage = try PostgresStorage(url: url)
        try await storage.create()
        let driver = try PostgresDriver(url: url, lockTimeout: 5)
        let connection = try await driver.connect()
        defer { driver.close(connection) }
        func rowByRow() async throws -> [Double] { try await connection.query(RowStoreSQL.everyKey, []) { try $0.real(0) } }

        #expect(try await connection.everyKey() == [])
        #expect(try await rowByRow() == [])

        let library = try await Library.open(storage, hub: NotificationHub())
        for title in ["Low", "Heroes", "Lodger"] { try await library.add(AlbumRecord(title: title, artist: "David Bowie"), at: 1) }
        try await library.move(.position(3), to: 1)
        let keys = try await connection.everyKey()
        #expect(keys.count == 3)
        #expect(keys == keys.sorted())
        #expect(try await rowByRow() == keys)
    }
}
