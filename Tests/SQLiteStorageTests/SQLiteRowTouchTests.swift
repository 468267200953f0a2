import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

@testable import AlbumKitRowStore
@testable import SQLiteStorage

/// A change writes the rows it touches: inserting near the front of 100 000 albums moves a
/// handful of sort keys, not every key after it.
@Suite struct SQLiteRowTouchTests {
    /// Every album's sort key, read straight from the table.
    private func keys(_ storage: SQLiteStorage) async throws -> [AlbumID: Double] {
        let rows = try await storage.store.withReader(transaction: true) { reader in
            try await reader.connection.query("SELECT id, sort_key FROM albumkit_albums", []) { (AlbumID(try $0.text(0)), try $0.real(1)) }
        }
        return Dictionary(uniqueKeysWithValues: rows)
    }

    @Test func insertsAtPositionTwoOfAHundredThousandRewriteAHandfulOfKeys() async throws {
        let folder = try TemporaryFolder("sqlite-touch")
        defer { folder.remove() }
        let storage = SQLiteStorage(file: folder.path("library.sqlite"))
        let albums = CompatFixtures.albums(count: 100_000)
        try await storage.create(holding: albums)
        let before = try await keys(storage)
        let library = try await Library.open(storage, hub: NotificationHub())
        var added: [Album] = []
        for index in 0..<60 {
            added.append(try await library.add(AlbumRecord(title: "Squeezed in \(index)", artist: "A"), at: 2).album)
        }
        let after = try await keys(storage)
        let moved = before.filter { after[$0.key] != $0.value }.count
        #expect(moved <= 120, "60 inserts at position 2 rewrote the keys of \(moved) of 100 000 albums")
        let stored = try await storage.load().albums
        #expect(stored.count == 100_060)
        #expect(stored[0] == albums[0] && Array(stored[1...60]) == added.reversed() && Array(stored[61...]) == Array(albums[1...]))
        let ordered = try await storage.store.withReader(transaction: true) { reader in
            try await reader.connection.query("SELECT sort_key FROM albumkit_albums ORDER BY sort_key", []) { try $0.real(0) }
        }
        #expect(Set(ordered).count == ordered.count, "sort keys stay distinct")
    }
}
