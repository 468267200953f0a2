@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// The facade: every change kind undoes and redoes exactly; the current album follows SPEC 5.
@Suite struct LibraryTests {
    private func makeLibrary(_ count: Int) async throws -> (Library, TemporaryFolder) {
        let folder = try TemporaryFolder("library")
        let backend = FileBackendKind.json.make(in: folder.url)
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        if count > 0 {
            try await library.replaceAll(with: LibrarySnapshot(albums: sampleAlbums(count)))
        }
        return (library, folder)
    }

    /// A listing long enough to be judged on every core keeps every album once, in order,
    /// each with its own cover state: stored, missing (named but not in the store), none.
    @Test func aLongListingJudgesEveryCoverInOrder() async throws {
        let (library, folder) = try await makeLibrary(0)
        defer { folder.remove() }
        let stored = try await library.storage.covers.put(Data([0x89, 0x50, 0x4E, 0x47, 1]), fileExtension: "png")
        let absent = CoverKey(sha256: String(repeating: "0", count: 64), fileExtension: "png")
        let count = 10_003
        let albums = CompatFixtures.numberedAlbums(count: count, covers: [stored.bundlePath, absent.bundlePath, nil])
        try await library.replaceAll(with: LibrarySnapshot(albums: albums))
        let listed = try await library.listed()
        #expect(listed.map(\.position) == Array(1...count))
        #expect(listed.map(\.album) == albums)
        #expect(listed.map(\.cover) == (0..<count).map { [CoverState.stored, .missing, .none][$0 % 3] })
        let missing = try await library.listed(matching: AlbumQuery(terms: ["cover:missing"]))
        #expect(missing.map(\.position) == Array(stride(from: 2, through: count, by: 3)))
    }

    enum ChangeKind: String, CaseIterable, Sendable, CustomStringConvertible {
        case add, addAtPosition, update, remove, removeSeveral, move, moveUp
        var description: String { rawValue }

        func apply(to library: Library) async throws {
            switch self {
            case .add: try await library.add(AlbumRecord(title: "New", artist: "Added"))
            case .addAtPosition: try await library.add(AlbumRecord(title: "New", artist: "At 2"), at: 2)
            case .update: try await library.update(.position(3), AlbumPatch(title: "Changed", genre: "Jazz", coverUrl: "https://x.test/c.png"))
            case .remove: try await library.remove([.position(2)])
            case .removeSeveral: try await library.remove([.position(1), .position(3), .id("id-Album-5")])
            case .move: try await library.move(.position(1), to: 4)
            case .moveUp: try await library.move(.position(5), to: 2)
            }
        }
    }

    @Test(arguments: ChangeKind.allCases)
    func undoAndRedoRestoreExactly(_ kind: ChangeKind) async throws {
        let (library, folder) = try await makeLibrary(5)
        defer { folder.remove() }
        let before = try await library.albums()
        try await kind.apply(to: library)
        let after = try await library.albums()
        #expect(after != before)
        try await library.undo()
        #expect(try await library.albums() == before)
        try await library.redo()
        #expect(try await library.albums() == after)
        try await library.undo()
        #expect(try await library.storage.load().albums == before, "undo must be saved")
    }

    @Test func removeAtTwoUndoesBackToTwo() async throws {
        let (library, folder) = try await makeLibrary(5)
        defer { folder.remove() }
        let second = try await library.albums()[1]
        try await library.remove([.position(2)])
        try await library.undo()
        #expect(try await library.albums()[1] == second)
    }

    @Test func newChangeClearsRedoAndEmptyHistoryThrows() async throws {
        let (library, folder) = try await makeLibrary(3)
        defer { folder.remove() }
        await #expect { try await library.undo() } throws: { ($0 as? AlbumKitError)?.kind == .historyEmpty }
        try await library.remove([.position(1)])
        try await library.undo()
        try await library.add(AlbumRecord(title: "Fresh", artist: "Start"))
        await #expect { try await library.redo() } throws: { ($0 as? AlbumKitError)?.kind == .historyEmpty }
    }

    @Test func currentFollowsItsAlbum() async throws {
        let (library, folder) = try await makeLibrary(5)
        defer { folder.remove() }
        let chosen = try await library.select(.position(2))
        try await library.remove([.position(1)])
        #expect(try await library.currentAlbum() == chosen)
        #expect(try await library.album(.id(chosen.id)).position == 1)
        try await library.move(.position(1), to: 3)
        #expect(try await library.currentAlbum() == chosen)
    }

    @Test func removingCurrentSelectsTheAlbumNowAtItsPosition() async throws {
        let (library, folder) = try await makeLibrary(5)
        defer { folder.remove() }
        try await library.select(.position(2))
        let third = try await library.albums()[2]
        try await library.remove([.position(2)])
        #expect(try await library.currentAlbum() == third)
    }

    @Test func removingCurrentLastSelectsTheNewLast() async throws {
        let (library, folder) = try await makeLibrary(3)
        defer { folder.remove() }
        try await library.select(.position(3))
        try await library.remove([.position(3)])
        #expect(try await library.currentAlbum() == (try await library.albums().last))
        try await library.remove([.position(1), .position(2)])
        #expect(try await library.currentAlbum() == nil, "an empty library has no current album")
    }

    @Test func removeSeveralIsOneStepWithPositionsAsListedBefore() async throws {
        let (library, folder) = try await makeLibrary(5)
        defer { folder.remove() }
        let removed = try await library.remove([.position(1), .position(3)])
        #expect(removed.map(\.title) == ["Album 1", "Album 3"])
        #expect(try await library.albums().map(\.title) == ["Album 2", "Album 4", "Album 5"])
        try await library.undo()
        #expect(try await library.albums().map(\.title) == (1...5).map { "Album \($0)" })
    }

    @Test func badPositionsAndInvalidFieldsChangeNothing() async throws {
        let (library, folder) = try await makeLibrary(2)
        defer { folder.remove() }
        let file = folder.path("library.json")
        let before = try Data(contentsOf: file)
        await #expect(throws: AlbumKitError.self) { try await library.remove([.position(3)]) }
        await #expect(throws: AlbumKitError.self) { try await library.remove([.position(1), .id("nope")]) }
        await #expect(throws: AlbumKitError.self) { try await library.add(AlbumRecord(title: " ", artist: "A")) }
        await #expect(throws: AlbumKitError.self) { try await library.add(AlbumRecord(title: "T", artist: "A"), at: 9) }
        await #expect(throws: AlbumKitError.self) { try await library.update(.position(1), AlbumPatch(year: "19999")) }
        await #expect(throws: AlbumKitError.self) { try await library.move(.position(1), to: 0) }
        #expect(try Data(contentsOf: file) == before)
    }

    /// Each save of a json library says how many albums it holds after it, whatever the change:
    /// an add, a removal, an import's appended run, an update, an undo, a redo.
    @Test func eachSaveCountsTheAlbumsAfterIt() async throws {
        let (library, folder) = try await makeLibrary(2)
        defer { folder.remove() }
        let counts = Mutex<[Int]>([])
        let subscription = library.hub.subscribe { event in
            if case .saved(_, let count) = event { counts.withLock { $0.append(count) } }
        }
        try await library.add(AlbumRecord(title: "T", artist: "A"))
        try await library.remove([.position(1), .position(2)])
        var items = (1...3).map { ImportItem(record: AlbumRecord(title: "I\($0)", artist: "B"), label: "in #\($0)", input: "in") }[...]
        _ = try await library.mergeImport(expecting: 3) { items.popFirst() }
        try await library.update(.position(1), AlbumPatch(title: "U"))
        try await library.undo()
        try await library.undo()
        try await library.redo()
        subscription.cancel()
        #expect(counts.withLock { $0 } == [3, 1, 4, 4, 4, 1, 4])
        #expect(try await library.albums().count == 4)
    }

    @Test func changesArePublishedOnTheHub() async throws {
        let (library, folder) = try await makeLibrary(2)
        defer { folder.remove() }
        let names = NamesCollector()
        let subscription = library.hub.subscribe { names.append($0.name) }
        try await library.add(AlbumRecord(title: "T", artist: "A"))
        try await library.move(.position(3), to: 1)
        try await library.update(.position(1), AlbumPatch(title: "U"))
        try await library.remove([.position(1)])
        subscription.cancel()
        #expect(names.all == [
            "library.albumAdded", "library.saved", "library.albumMoved", "library.saved",
            "library.albumUpdated", "library.saved", "library.albumRemoved", "library.saved",
        ])
    }
}

/// Collects event names from a subscriber.
final class NamesCollector: Sendable {
    private let names = Mutex<[String]>([])
    func append(_ name: String) { names.withLock { $0.append(name) } }
    var all: [String] { names.withLock { $0 } }
}

import Synchronization
