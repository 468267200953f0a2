import AlbumKit
import Foundation

/// The behaviour every ``StorageBackend`` must show, as a library any adapter's tests run —
/// in the manner of swift-configuration's `ProviderCompatTest`. Each ``Check`` starts from a
/// backend that `makeBackend` returns for a fresh, empty location and throws a
/// ``CompatFailure`` that says what differed.
///
/// ```swift
/// @Test(arguments: StorageBackendCompatTest.Check.allCases)
/// func conformance(_ check: StorageBackendCompatTest.Check) async throws {
///     try await StorageBackendCompatTest { try makeFreshBackend() }.run(check)
/// }
/// ```
public struct StorageBackendCompatTest: Sendable {
    /// One behaviour the suite checks.
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        case missingLibraryFailsToLoad
        case createMakesEmptyLibraryOnce
        case albumsRoundTripInOrder
        case unicodeAndLongFieldsRoundTrip
        case everyEditKindPersists
        case mementoSurvivesReopening
        case historyIsBounded
        case concurrentWritersAllLand
        case replaceAllReplacesEverything
        case coverStoreIsContentAddressed

        public var description: String { rawValue }
    }

    private let makeBackend: @Sendable () async throws -> any StorageBackend

    /// A suite whose checks each use a backend from `makeBackend`, at a fresh empty location.
    public init(makeBackend: @escaping @Sendable () async throws -> any StorageBackend) {
        self.makeBackend = makeBackend
    }

    /// Runs one check.
    public func run(_ check: Check) async throws {
        let backend = try await makeBackend()
        switch check {
        case .missingLibraryFailsToLoad: try await missingLibraryFailsToLoad(backend)
        case .createMakesEmptyLibraryOnce: try await createMakesEmptyLibraryOnce(backend)
        case .albumsRoundTripInOrder: try await roundTrip(backend, CompatFixtures.albums(count: 250))
        case .unicodeAndLongFieldsRoundTrip: try await roundTrip(backend, CompatFixtures.unusualAlbums())
        case .everyEditKindPersists: try await everyEditKindPersists(backend)
        case .mementoSurvivesReopening: try await mementoSurvivesReopening(backend)
        case .historyIsBounded: try await historyIsBounded(backend)
        case .concurrentWritersAllLand: try await concurrentWritersAllLand(backend)
        case .replaceAllReplacesEverything: try await replaceAllReplacesEverything(backend)
        case .coverStoreIsContentAddressed: try await coverStoreIsContentAddressed(backend)
        }
    }

    /// Runs every check in order.
    public func runAll() async throws {
        for check in Check.allCases { try await run(check) }
    }

    // MARK: - Checks

    private func missingLibraryFailsToLoad(_ backend: any StorageBackend) async throws {
        try expect(try await backend.exists() == false, "a fresh location must hold no library")
        do {
            _ = try await backend.load()
            throw CompatFailure("load() of a missing library must throw")
        } catch let error as AlbumKitError {
            try expect(error.kind == .libraryState, "load() of a missing library threw \(error.kind), not libraryState")
        }
    }

    private func createMakesEmptyLibraryOnce(_ backend: any StorageBackend) async throws {
        try await backend.create()
        try expect(try await backend.exists(), "exists() must be true after create()")
        try expect(try await backend.load() == LibrarySnapshot(), "a new library must be empty")
        let hub = NotificationHub()
        try await Library.open(backend, hub: hub).add(AlbumRecord(title: "Kept", artist: "A"))
        do {
            try await backend.create()
            throw CompatFailure("create() over an existing library must throw")
        } catch let error as AlbumKitError {
            try expect(error.kind == .libraryState, "create() over a library threw \(error.kind), not libraryState")
        }
        try expect(try await backend.load().albums.map(\.title) == ["Kept"], "a refused create() must leave the library as it was")
    }

    private func roundTrip(_ backend: any StorageBackend, _ albums: [Album]) async throws {
        try await backend.create()
        let snapshot = LibrarySnapshot(albums: albums, state: LibraryState(current: albums[albums.count / 2].id))
        try await backend.withWriter { writer, _ in try await writer.save(snapshot, change: .replaceAll) }
        let loaded = try await backend.load()
        try expect(loaded.albums.count == albums.count, "saved \(albums.count) albums, loaded \(loaded.albums.count)")
        for (saved, read) in zip(albums, loaded.albums) where saved != read {
            throw CompatFailure("album changed in the round trip:\n  saved  \(saved)\n  loaded \(read)")
        }
        try expect(loaded == snapshot, "the state changed in the round trip")
    }

    private func everyEditKindPersists(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        for album in CompatFixtures.albums(count: 6) {
            try await library.add(AlbumRecord(id: album.id, title: album.title, artist: album.artist, year: album.year))
        }
        try await library.add(AlbumRecord(title: "Inserted", artist: "At Two"), at: 2)
        try await library.update(.position(1), AlbumPatch(title: "Renamed", year: "1999"))
        try await library.move(.position(7), to: 1)
        try await library.remove([.position(2), .position(5)])
        try await library.select(.position(3))
        try await library.undo()
        try await library.undo()
        try await library.redo()
        try await expectStored(backend, equals: await library.snapshot, after: "add, insert, update, move, remove, undo, redo")
        try await library.remove([.position(1)])
        try await expectStored(backend, equals: await library.snapshot, after: "a remove that clears redo")
    }

    private func mementoSurvivesReopening(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let first = try await Library.open(backend, hub: NotificationHub())
        for album in CompatFixtures.albums(count: 4) {
            try await first.add(AlbumRecord(title: album.title, artist: album.artist))
        }
        try await first.select(.position(3))
        try await first.remove([.position(2)])
        try await first.undo()
        let expected = await first.snapshot
        let second = try await Library.open(backend, hub: NotificationHub())
        try expect(await second.snapshot == expected, "reopening changed the library or its memento")
        try expect(await second.currentAlbum?.title == expected.albums[2].title, "the current album did not survive reopening")
        try await second.redo()
        try expect(await second.albums.count == 3, "redo after reopening did not remove the album again")
    }

    private func historyIsBounded(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub(), historyLimit: 10)
        for index in 1...14 { try await library.add(AlbumRecord(title: "Album \(index)", artist: "Bounded")) }
        let state = try await backend.load().state
        try expect(state.undo.count == 10, "history kept \(state.undo.count) steps, the limit is 10")
        try expect(state.undo.first?.edits.first.map(Self.title) == "Album 5", "the oldest steps must be the ones dropped")
    }

    private func concurrentWritersAllLand(_ backend: any StorageBackend) async throws {
        try await backend.create()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let library = try await Library.open(backend, hub: NotificationHub())
                    try await library.add(AlbumRecord(title: "Writer \(index)", artist: "Concurrent"))
                }
            }
            try await group.waitForAll()
        }
        let stored = try await backend.load()
        try expect(stored.albums.count == 20, "20 concurrent writers left \(stored.albums.count) albums")
        try expect(Set(stored.albums.map(\.title)).count == 20, "concurrent writers overwrote each other")
        try expect(stored.state.undo.count == 20, "concurrent writers left \(stored.state.undo.count) history steps, not 20")
    }

    private func replaceAllReplacesEverything(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        for album in CompatFixtures.albums(count: 5) { try await library.add(AlbumRecord(title: album.title, artist: album.artist)) }
        let replacement = LibrarySnapshot(
            albums: CompatFixtures.albums(count: 3),
            state: LibraryState(current: CompatFixtures.albums(count: 3)[1].id, undo: [], redo: []))
        try await backend.withWriter { writer, _ in try await writer.save(replacement, change: .replaceAll) }
        try await expectStored(backend, equals: replacement, after: "replaceAll")
    }

    private func coverStoreIsContentAddressed(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let store = backend.covers
        let bytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let key = try await store.put(bytes, fileExtension: "png")
        let again = try await store.put(bytes, fileExtension: "png")
        try expect(key == again, "the same bytes must get the same key")
        try expect(key == CoverKey(bytes: bytes, fileExtension: "png"), "the key must be the SHA-256 of the bytes")
        try expect(try await store.keys() == [key], "the same bytes stored twice must be kept once")
        try expect(try await store.data(for: key) == bytes, "the stored bytes must come back exactly")
        try expect(try await store.contains(key), "contains() must see a stored cover")
        let other = try await store.put(Data("other".utf8), fileExtension: "jpg")
        try expect(try await store.keys() == [key, other].sorted(), "keys() must list every cover, sorted")
        try expect(try await store.remove(key) == bytes.count, "remove() must report the bytes freed")
        try expect(try await store.contains(key) == false, "a removed cover must be gone")
        try expect(try await store.data(for: key) == nil, "a removed cover must read as nil")
    }

    // MARK: - Helpers

    private func expectStored(_ backend: any StorageBackend, equals expected: LibrarySnapshot, after what: String) async throws {
        let stored = try await backend.load()
        try expect(stored.albums == expected.albums, "after \(what), stored albums \(stored.albums.map(\.title)) ≠ expected \(expected.albums.map(\.title))")
        try expect(stored.state == expected.state, "after \(what), the stored memento differs from the library's")
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw CompatFailure(message()) }
    }

    private static func title(_ edit: LibraryEdit) -> String {
        switch edit {
        case .insert(let album, _), .remove(let album, _): album.title
        case .update(_, let after): after.title
        case .move(let id, _, _): id.rawValue
        }
    }
}

/// What a failed check says.
public struct CompatFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
