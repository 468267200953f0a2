import AlbumKit
import AlbumKitBundle
import Foundation
import Synchronization

/// Every call `serve` makes into the core, in one file: routes, the watcher and the cover
/// service go through here, never to storage. Changes run one at a time (``SerialGate``)
/// and each leaves a fresh copy of the library (``snapshot``) that reads use without
/// waiting, so a reader sees the library before or after a change, never half of one.
final class LibraryGateway: Sendable {
    private let library: Library
    private let registry: AdapterRegistry
    private let configuration: Configuration
    private let gate = SerialGate()
    private let view: Mutex<LibrarySnapshot>

    /// A gateway to the opened `library`, configured by `configuration`.
    init(library: Library, registry: AdapterRegistry, configuration: Configuration) async {
        self.library = library
        self.registry = registry
        self.configuration = configuration
        view = Mutex(await library.snapshot)
    }

    /// Where the library's events go.
    var hub: NotificationHub { library.hub }
    /// Where the library lives, for messages and for watching.
    var location: String { library.storage.location }
    /// The storage, only to watch it for other writers (``LibraryWatcher``).
    var changeFeed: (any StorageChangeFeed)? { library.storage as? any StorageChangeFeed }
    /// The library as the last change or reload left it.
    var snapshot: LibrarySnapshot { view.withLock { $0 } }
    /// The reading limits uploads are held to.
    var limits: Limits { configuration.limits }
    /// The library folder: uploads and exports are written inside it.
    var folder: URL { configuration.libraryDirectory }

    // MARK: Reads

    /// How `album`'s cover stands, with its stored key when the bytes are in the store.
    func cover(of album: Album) async -> (state: CoverState, key: CoverKey?) {
        guard album.coverUrl != nil else { return (.none, nil) }  // no reference: nothing to ask the library
        if let key = await library.storedCover(of: album) { return (.stored, key) }
        return (await library.coverState(of: album), nil)
    }

    /// The stored cover whose SHA-256 is `sha256` (64 lower-case hex digits, checked by the
    /// caller), with its key; nil when the store has none.
    func coverBytes(sha256: String) async throws -> (key: CoverKey, bytes: Data)? {
        for kind in ImageKind.allCases {
            let key = CoverKey(sha256: sha256, fileExtension: kind.fileExtension)
            if let bytes = try await library.storage.covers.data(for: key) { return (key, bytes) }
        }
        return nil
    }

    // MARK: Changes

    /// Adds `record` at `position` (default: the end).
    func add(_ record: AlbumRecord, at position: Int?) async throws -> Album {
        try await change { try await $0.add(record, at: position) }
    }

    /// Changes the fields `patch` names.
    func update(_ reference: AlbumReference, _ patch: AlbumPatch) async throws -> Album {
        try await change { try await $0.update(reference, patch) }
    }

    /// Removes one album (an undoable step).
    func remove(_ reference: AlbumReference) async throws -> Album {
        try await change { try await $0.remove([reference])[0] }
    }

    /// Moves one album to `position`.
    func move(_ reference: AlbumReference, to position: Int) async throws {
        try await change { try await $0.move(reference, to: position) }
    }

    /// Makes an album current (the memento; not a step of history).
    func select(_ reference: AlbumReference) async throws -> Album {
        try await change { try await $0.select(reference) }
    }

    /// Takes back (or, `forward`, applies again) one step of history.
    func walkHistory(forward: Bool) async throws -> LibraryChange {
        try await change { forward ? try await $0.redo() : try await $0.undo() }
    }

    /// Imports `file` exactly as `albumkit import FILE` would (one undoable step).
    func importFile(_ file: URL, policy: DuplicatePolicy) async throws -> ImportSummary {
        try await change { library in
            try await ImportPipeline(
                registry: registry, limits: configuration.limits, policy: policy, stagingParent: configuration.libraryDirectory
            ).run([file], into: library)
        }
    }

    /// Writes a backup bundle of the library to `file` (`.tar.gz`); returns its album count.
    func exportBundle(to file: URL) async throws -> Int {
        // Under the gate, so the bundle is one state of the library and its covers.
        try await gate.run {
            let snapshot = await library.snapshot
            try await BundleWriter(compression: .gzip, generator: "albumkit \(AlbumKitVersion.current)")
                .write(snapshot, covers: library.storage.covers, to: file, hub: library.hub)
            return snapshot.albums.count
        }
    }

    /// Adopts what another process saved, if anything; returns whether the library changed.
    func reloadIfChanged() async throws -> Bool {
        try await change { try await $0.reloadIfChanged() }
    }

    /// Records in the memento what fetching a cover reference gave.
    func recordCover(_ reference: String, _ resolution: CoverResolution) async throws {
        try await change { try await $0.recordCovers([reference: resolution]) }
    }

    /// A cover service for this library through the configured fetcher chain; the caller
    /// attaches it to the hub and finishes it when serving ends.
    func makeCoverService() throws -> CoverService {
        let fetchers = try registry.makeCoverFetchers(CoverFetcherContext(configuration: configuration, store: library.storage.covers))
        return CoverService(library: library, fetchers: fetchers, covers: configuration.covers)
    }

    /// Runs `body` after every earlier change, then refreshes ``snapshot`` — also when it
    /// failed, since a failed change reloads the library.
    private func change<T>(_ body: (Library) async throws -> T) async throws -> T {
        try await gate.run {
            let result: Result<T, any Error>
            do { result = .success(try await body(library)) } catch { result = .failure(error) }
            let fresh = await library.snapshot
            view.withLock { $0 = fresh }
            return try result.get()
        }
    }
}
