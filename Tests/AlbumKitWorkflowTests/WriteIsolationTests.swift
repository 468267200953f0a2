import AlbumKit
import Foundation
import Synchronization
import Testing

/// A reader of a library during a write sees it before or after the change, never empty or
/// partial; a save that fails leaves memory and disk as they were.
@Suite struct WriteIsolationTests {
    @Test func readersNeverSeeAHalfWrittenLibrary() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await Library.create(workspace.configuration(), registry: Workspace.registry, hub: workspace.hub, seed: .starter)
        let base = try await library.albums().count
        let seen = Sightings()
        let readers = (0..<4).map { _ in
            Task {
                while !seen.done.load(ordering: .acquiring) {
                    seen.note(try await library.albums().count)
                }
            }
        }
        while seen.reads < 4 { await Task.yield() }  // every reader is running
        let readsBefore = seen.reads
        for round in 0..<500 {
            try await library.add(AlbumRecord(title: "Round \(round)", artist: "Writer"))
            await Task.yield()
            try await library.remove([.position(base + 1)])
            await Task.yield()
        }
        seen.done.store(true, ordering: .releasing)
        for reader in readers { try await reader.value }
        let counts = seen.counts
        #expect(counts.isSubset(of: [base, base + 1]), "readers saw \(counts.sorted()), not only \(base) or \(base + 1)")
        #expect(seen.reads > readsBefore, "the readers read while the writes ran")
    }

    @Test func aFailedSaveLeavesMemoryAndDiskAsTheyWere() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = workspace.configuration()
        _ = try await Library.create(configuration, registry: Workspace.registry, hub: workspace.hub, seed: .starter)
        var registry = Workspace.registry
        let failing = SaveFailure()
        registry.register(StorageBackendFactory(name: "json", summary: "json whose saves fail on demand") { configuration in
            FailingSaves(wrapped: try Workspace.registry.makeStorage(for: configuration), failure: failing)
        })
        let library = try await Library.open(configuration, registry: registry, hub: workspace.hub)
        try await library.add(AlbumRecord(title: "Kept", artist: "Before the failure"))
        let albums = try await library.albums()
        let snapshot = try await library.snapshot()
        let files = Workspace.hashes(of: URL(fileURLWithPath: configuration.library))
        failing.armed.store(true, ordering: .releasing)
        await #expect(throws: AlbumKitError.self) { try await library.remove([.position(1), .position(3)]) }
        await #expect(throws: AlbumKitError.self) { try await library.update(.position(2), AlbumPatch(title: "Changed")) }
        await #expect(throws: AlbumKitError.self) { try await library.undo() }
        await #expect(throws: AlbumKitError.self) { try await library.select(.position(4)) }
        #expect(try await library.albums() == albums)
        #expect(try await library.snapshot() == snapshot, "the memento (history, current album) is as it was")
        #expect(Workspace.hashes(of: URL(fileURLWithPath: configuration.library)) == files)
        failing.armed.store(false, ordering: .releasing)
        try await library.undo()
        #expect(try await library.albums().map(\.title) == albums.dropLast().map(\.title), "the library goes on working")
    }
}

/// What the readers saw, and when to stop.
final class Sightings: Sendable {
    let done = Atomic(false)
    private let seen = Mutex<(counts: Set<Int>, reads: Int)>(([], 0))
    func note(_ count: Int) {
        seen.withLock { seen in
            seen.counts.insert(count)
            seen.reads += 1
        }
    }
    var counts: Set<Int> { seen.withLock { $0.counts } }
    var reads: Int { seen.withLock { $0.reads } }
}

/// Whether saves fail.
final class SaveFailure: Sendable {
    let armed = Atomic(false)
}

/// A real backend whose writers' saves throw while `failure` is armed: fault injection.
struct FailingSaves: StorageBackend {
    let wrapped: any StorageBackend
    let failure: SaveFailure

    var location: String { wrapped.location }
    var covers: any CoverStore { wrapped.covers }
    func exists() async throws -> Bool { try await wrapped.exists() }
    func create() async throws { try await wrapped.create() }
    func load() async throws -> LibrarySnapshot { try await wrapped.load() }
    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] { try await wrapped.steps(ids) }
    func beginWrite() async throws -> any StorageWriter { Writer(wrapped: try await wrapped.beginWrite(), failure: failure) }

    struct Writer: StorageWriter {
        let wrapped: any StorageWriter
        let failure: SaveFailure
        func load() async throws -> LibrarySnapshot { try await wrapped.load() }
        func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] { try await wrapped.steps(ids) }
        func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws {
            if failure.armed.load(ordering: .acquiring) { throw AlbumKitError(.fileSystem, "\(snapshot.albums.count) albums: injected save failure") }
            try await wrapped.save(snapshot, change: change)
        }
        func finish() async { await wrapped.finish() }
    }
}
