import AlbumKit
import Foundation
import Synchronization

/// Every call `serve` makes into the core, in one file: routes, the watcher and the cover
/// service go through here, and only through the ``Library`` door. Changes run one at a time
/// (``SerialGate``) and each leaves a fresh copy of the library (``snapshot``) that reads use
/// without waiting — pages of albums are served from memory.
final class LibraryGateway: Sendable {
    private let library: Library
    private let gate = SerialGate()
    private let view: Mutex<LibrarySnapshot>

    /// A gateway to the opened `library`.
    init(library: Library) async throws {
        self.library = library
        view = Mutex(try await library.snapshot())
    }

    /// Where the library's events go.
    var hub: NotificationHub { library.hub }
    /// Where the library lives, for messages and for watching.
    var location: String { library.location }
    /// The backend's feed of other writers' saves, when it has one (``LibraryWatcher``).
    var changeFeed: (any StorageChangeFeed)? { library.changeFeed }
    /// The library as the last change or reload left it.
    var snapshot: LibrarySnapshot { view.withLock { $0 } }
    /// The reading limits uploads are held to.
    var limits: Limits { library.configuration.limits }
    /// The library folder: uploads and exports are written inside it.
    var folder: URL { library.configuration.libraryDirectory }

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
            if let bytes = try await library.coverBytes(key) { return (key, bytes) }
        }
        return nil
    }

    // MARK: Changes

    /// Adds `record` at `position` (default: the end).
    func add(_ record: AlbumRecord, at position: Int?) async throws -> Album {
        try await change { try await $0.add(record, at: position).album }
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
        try await change { try await $0.importAlbums(from: [file], options: ImportOptions(onDuplicate: policy)).report.summary }
    }

    /// Writes a backup bundle of the library to `file` (`.tar.gz`); returns its album count.
    func exportBundle(to file: URL) async throws -> Int {
        // Under the gate, so the bundle is one state of the library and its covers.
        try await gate.run { try await library.export(to: file, replacing: true).albums }
    }

    /// Adopts what another process saved, if anything; returns whether the library changed.
    func reloadIfChanged() async throws -> Bool {
        try await change { try await $0.reloadIfChanged() }
    }

    /// A cover service for this library through its fetcher chain; the caller attaches it to
    /// the hub and finishes it when serving ends.
    func makeCoverService() async throws -> CoverService { try await library.makeCoverService() }

    /// Runs `body` after every earlier change, then refreshes ``snapshot`` — also when it
    /// failed, since the library may have caught up with another writer meanwhile.
    private func change<T>(_ body: (Library) async throws -> T) async throws -> T {
        try await gate.run {
            let result: Result<T, any Error>
            do { result = .success(try await body(library)) } catch { result = .failure(error) }
            if let fresh = try? await library.snapshot() { view.withLock { $0 = fresh } }
            return try result.get()
        }
    }
}
