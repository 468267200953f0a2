import AlbumKit
import AlbumKitBundle
import AlbumKitInstalled
import AlbumKitTesting
import Foundation
import PostgresStorage
import SQLiteStorage
import Testing

/// `Migration` from every backend to every other: albums, order, ids, covers and memento
/// arrive exactly, the source stays as it was, and migrating back gives the same library
/// again. The PostgreSQL pairs are a test of their own, skipped with a note when no server
/// is configured.
@Suite struct MigrationMatrixTests {
    static let fileBackends = ["json", "plist", "bundle", "sqlite"]
    static let pairs = fileBackends.flatMap { from in fileBackends.filter { $0 != from }.map { (from, $0) } }
    static let postgresPairs = fileBackends.flatMap { [($0, "postgres"), ("postgres", $0)] }

    private static let registry = AdapterRegistry.installed

    @Test(arguments: pairs)
    func migrationRoundTripsExactly(from: String, to: String) async throws {
        try await roundTrip(from: from, to: to)
    }

    @Test(.enabled(if: TestServer.enabled, TestServer.skipNote), arguments: postgresPairs)
    func migrationWithPostgresRoundTripsExactly(from: String, to: String) async throws {
        try await roundTrip(from: from, to: to)
    }

    private func roundTrip(from: String, to: String) async throws {
        let folder = try TemporaryFolder("migrate-\(from)-\(to)")
        defer { folder.remove() }
        let source = try await Self.backend(from, in: folder.path("source"))
        try await source.create()
        let expected = try await Self.fill(source)

        let destination = try await Self.backend(to, in: folder.path("destination"))
        let report = try await Migration(from: source, to: destination, hub: NotificationHub()).run()
        #expect(report.albums == expected.albums.count)
        #expect(report.covers == 2)
        try await Self.expectSame(destination, expected)
        try await Self.expectSame(source, expected)

        let back = try await Self.backend(from, in: folder.path("back"))
        _ = try await Migration(from: destination, to: back, hub: NotificationHub()).run()
        try await Self.expectSame(back, expected)
    }

    @Test func aDestinationHoldingAnotherLibraryIsRefusedAndKept() async throws {
        let folder = try TemporaryFolder("migrate-occupied")
        defer { folder.remove() }
        let source = try await Self.backend("json", in: folder.path("source"))
        try await source.create()
        _ = try await Self.fill(source)
        let destination = try await Self.backend("sqlite", in: folder.path("destination"))
        try await destination.create()
        try await Library.open(destination, hub: NotificationHub()).add(AlbumRecord(title: "Mine", artist: "Keep"))
        await #expect(throws: AlbumKitError.self) { try await Migration(from: source, to: destination, hub: NotificationHub()).run() }
        #expect(try await destination.load().albums.map(\.title) == ["Mine"])
    }

    private static func backend(_ name: String, in folder: URL) async throws -> any StorageBackend {
        var configuration = Configuration(environment: [:])
        configuration.library = folder.path
        configuration.storage.backend = name
        if name == "postgres" { configuration.storage.url = try await TestServer.freshDatabase() }
        return try registry.makeStorage(for: configuration)
    }

    /// Unusual albums, two stored covers, a current album, undo and redo steps.
    private static func fill(_ storage: any StorageBackend) async throws -> LibrarySnapshot {
        let png = try await storage.covers.put(Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) }), fileExtension: "png")
        let jpg = try await storage.covers.put(Data("jpeg bytes".utf8), fileExtension: "jpg")
        let library = try await Library.open(storage, hub: NotificationHub())
        for album in CompatFixtures.unusualAlbums() {
            try await library.add(AlbumRecord(id: album.id, title: album.title, artist: album.artist, genre: album.genre, year: album.year, coverUrl: album.coverUrl))
        }
        try await library.add(AlbumRecord(title: "With PNG", artist: "Covers", year: "1992", coverUrl: png.bundlePath), at: 2)
        try await library.add(AlbumRecord(title: "With JPG", artist: "Covers", coverUrl: jpg.bundlePath))
        try await library.move(.position(1), to: 5)
        try await library.remove([.position(3)])
        try await library.select(.position(4))
        try await library.undo()
        return try await library.snapshot()
    }

    private static func expectSame(_ storage: any StorageBackend, _ expected: LibrarySnapshot) async throws {
        let loaded = try await storage.load()
        #expect(loaded.albums == expected.albums, "albums differ in \(storage.location)")
        #expect(loaded.state == expected.state, "memento differs in \(storage.location)")
        let keys = try await storage.covers.keys()
        #expect(keys.count == 2, "covers in \(storage.location): \(keys)")
        for key in keys {
            let bytes = try await storage.covers.data(for: key)
            #expect(bytes.map { CoverKey(bytes: $0, fileExtension: key.fileExtension) } == key)
        }
    }
}
