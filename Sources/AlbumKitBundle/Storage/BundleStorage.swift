import AlbumKit
import Foundation

/// A library kept whole — albums, state and covers — in one bundle file (`library.tar` by
/// default), readable by `tar` and importable anywhere. Every save rewrites the file to a
/// temporary name and renames it into place; a lock file (`<file>.lock`) makes a second writer
/// wait. Covers put between saves wait beside it and are folded in by the next save.
public struct BundleStorage: StorageBackend {
    private let bundle: BundleFile
    private let coverStore: BundleCoverStore

    /// A library in `file`, compressed as its name says.
    public init(file: URL, limits: Limits = Limits(), lockTimeout: Double = 30) throws {
        bundle = BundleFile(file: file, compression: try BundleCompression(path: file.path), limits: limits, lockTimeout: lockTimeout)
        coverStore = BundleCoverStore(storage: bundle)
    }

    /// The bundle file.
    public var file: URL { bundle.file }
    public var location: String { bundle.file.path }
    public var covers: any CoverStore { coverStore }

    public func exists() async throws -> Bool { FileManager.default.fileExists(atPath: bundle.file.path) }

    public func create() async throws {
        try AtomicFile.makeFolder(bundle.file.deletingLastPathComponent())
        let lock = try await FileLock.acquire(bundle.lockPath, timeout: bundle.lockTimeout)
        defer { lock.release() }
        guard try await !exists() else {
            throw AlbumKitError(.libraryState, "a library already exists at \(bundle.file.path); it was left as it is")
        }
        try await coverStore.rewrite(LibrarySnapshot(), steps: [:])
    }

    public func load() async throws -> LibrarySnapshot {
        guard let scan = try coverStore.scan() else {
            throw AlbumKitError(.libraryState, "no library at \(bundle.file.path): run 'albumkit init' first")
        }
        return scan.snapshot
    }

    public func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] {
        (try coverStore.scan()?.steps ?? [:]).filter { ids.contains($0.key) }
    }

    public func beginWrite() async throws -> any StorageWriter {
        guard FileManager.default.fileExists(atPath: bundle.file.deletingLastPathComponent().path) else {
            throw AlbumKitError(.libraryState, "no library at \(bundle.file.path): run 'albumkit init' first")
        }
        return BundleStorageWriter(storage: self, lock: try await FileLock.acquire(bundle.lockPath, timeout: bundle.lockTimeout))
    }

    /// Rewrites the bundle with `snapshot` and the steps its memento names: those stored,
    /// with `change`'s added (all stored ones go on a replacement).
    fileprivate func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws {
        var steps = change.albums == .replaced ? [:] : try coverStore.scan()?.steps ?? [:]
        steps.merge(change.addedSteps) { _, new in new }
        let named = Set(snapshot.state.stepIDs)
        try await coverStore.rewrite(snapshot, appending: change.appended, steps: steps.filter { named.contains($0.key) })
    }
}

/// The writer session of a ``BundleStorage``: holds the lock, rewrites the bundle on save.
private final class BundleStorageWriter: StorageWriter {
    let storage: BundleStorage
    let lock: FileLock

    init(storage: BundleStorage, lock: FileLock) {
        self.storage = storage
        self.lock = lock
    }

    func load() async throws -> LibrarySnapshot { try await storage.load() }
    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] { try await storage.steps(ids) }
    func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws { try await storage.save(snapshot, change: change) }
    func finish() async { lock.release() }
}

extension StorageBackendFactory {
    /// `bundle`: the whole library in one bundle file (default `library.tar`).
    public static let bundle = StorageBackendFactory(
        name: "bundle", summary: "one bundle file (library.tar: albums, state and covers together)",
        settings: [.libraryFile("library.tar")]
    ) { configuration in
        try BundleStorage(
            file: configuration.resolve(configuration.backendSettings("bundle").string("path") ?? "library.tar"), limits: configuration.limits,
            lockTimeout: configuration.storage.lockTimeoutSeconds)
    }
}
