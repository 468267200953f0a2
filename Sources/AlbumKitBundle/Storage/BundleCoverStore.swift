import AlbumKit
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The covers of a ``BundleStorage`` library: those inside the bundle file, read back by
/// offset (or in sequence when the file is compressed), plus covers put since the last save,
/// which wait as files in `<bundle>.pending-covers/` until the next save folds them in. Every
/// save folds in every pending cover, so no saved library names a cover only the folder holds:
/// the covers an import inserts are made durable by the save that commits it, not on their own.
public final class BundleCoverStore: CoverStore {
    private let storage: BundleFile
    private let pending: DirectoryCoverStore
    private let cache = Mutex<BundleLibraryScan?>(nil)

    init(storage: BundleFile) {
        self.storage = storage
        pending = DirectoryCoverStore(foldedInBySave: URL(fileURLWithPath: storage.file.path + ".pending-covers"))
    }

    public func put(_ bytes: Data, fileExtension: String) async throws -> CoverKey {
        let key = CoverKey(bytes: bytes, fileExtension: fileExtension)
        if try scan()?.covers[key] != nil { return key }
        return try await pending.put(bytes, fileExtension: fileExtension)
    }

    /// The batch's covers the bundle lacks become pending covers, folded in by the next save.
    public func insert(_ covers: [(key: CoverKey, bytes: Data)]) async throws -> [CoverKey] {
        let scan = try scan()
        return try await pending.insert(covers.filter { scan?.covers[$0.key] == nil })
    }

    /// Nothing to flush: the save that names the covers ``insert(_:)`` wrote folds them into the
    /// bundle file it writes and flushes (flushing them first wrote every cover to disk twice).
    public func makeDurable() async throws {}

    public func data(for key: CoverKey) async throws -> Data? {
        if let bytes = try await pending.data(for: key) { return bytes }
        for _ in 0..<2 {
            guard let scan = try scan(), let location = scan.covers[key] else { return nil }
            if let bytes = try read(key, at: location, in: scan) { return bytes }
            cache.withLock { $0 = nil }  // the file changed under the scan; scan again
        }
        throw AlbumKitError(.unreadableInput, "\(storage.file.path): cover \(key) keeps changing while being read")
    }

    public func contains(_ key: CoverKey) async throws -> Bool {
        if try await pending.contains(key) { return true }
        return try scan()?.covers[key] != nil
    }

    public func keys() async throws -> [CoverKey] { try keys(pendingKeys: try await pending.keys()) }

    /// The keys of the covers inside the bundle and of `pendingKeys` (sorted, each once), sorted,
    /// each once: merged, not through a set, which would hold every key a second time beside the
    /// lists (BENCHMARKS.md); the pending list itself when the bundle holds none.
    private func keys(pendingKeys: [CoverKey]) throws -> [CoverKey] {
        var stored = try scan()?.covers.keys.map { $0 } ?? []
        guard !stored.isEmpty else { return pendingKeys }
        stored.sortWithoutScratch()
        return stored.mergingSorted(pendingKeys)
    }

    /// Drops a pending cover, or rewrites the bundle without a stored one (under the lock).
    public func remove(_ key: CoverKey) async throws -> Int {
        let freed = try await pending.remove(key)
        guard try scan()?.covers[key] != nil else { return freed }
        let size = try await data(for: key)?.count ?? 0
        let lock = try await FileLock.acquire(storage.lockPath, timeout: storage.lockTimeout)
        defer { lock.release() }
        guard let scan = try scan() else { return freed }
        try await rewrite(scan.snapshot, steps: scan.steps, excluding: key)
        return max(freed, size)
    }

    /// Writes `snapshot` (its albums, then `appended`'s) and every cover but `excluded` as the
    /// new bundle file, then deletes the pending covers it folded in. The caller holds the
    /// writer lock.
    func rewrite(
        _ snapshot: LibrarySnapshot, appending appended: AlbumRun? = nil, steps: [Int64: HistoryStep],
        excluding excluded: CoverKey? = nil
    ) async throws {
        let folded = try await pending.keys()
        var keys = try keys(pendingKeys: folded)
        if let excluded { keys.removeAll { $0 == excluded } }
        var contents = ExportContents(
            snapshot: snapshot, appending: appended, covers: self, steps: { _ in steps }, generator: BundleFile.generator)
        contents.keepsStepIDs = true
        try await BundleWriter(compression: storage.compression, generator: BundleFile.generator).write(contents, keys: keys, to: storage.file)
        pending.remove(folded)
        rmdir(pending.folder.path)  // fails, harmlessly, while covers are still pending
    }

    /// The scan of the bundle file as it is now (nil when there is none), cached per file version.
    func scan() throws(AlbumKitError) -> BundleLibraryScan? {
        guard let identity = BundleLibraryScan.Identity(path: storage.file.path) else { return nil }
        if let cached = cache.withLock({ $0 }), cached.identity == identity { return cached }
        let scan = try BundleLibraryScan(file: storage.file, limits: storage.limits)
        cache.withLock { $0 = scan }
        return scan
    }

    /// The cover's bytes, checked against its key; nil when the file is no longer the scanned one.
    private func read(_ key: CoverKey, at location: BundleLibraryScan.Location, in scan: BundleLibraryScan) throws -> Data? {
        let bytes: Data?
        switch location {
        case .offset(let offset, let size):
            bytes = try readRange(offset: offset, size: size, expecting: scan.identity)
        case .inSequence:
            bytes = try readInSequence(key)
        }
        guard let bytes else { return nil }
        guard CoverKey(bytes: bytes, fileExtension: key.fileExtension) == key else {
            throw AlbumKitError(.unreadableInput, "\(storage.file.path) entry \(key.bundlePath): the cover's bytes do not hash to its name")
        }
        return bytes
    }

    private func readRange(offset: Int64, size: Int, expecting identity: BundleLibraryScan.Identity?) throws -> Data? {
        let descriptor = open(storage.file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard BundleLibraryScan.Identity(descriptor: descriptor) == identity else { return nil }
        var bytes = Data(count: size)
        let read = bytes.withUnsafeMutableBytes { buffer in pread(descriptor, buffer.baseAddress, size, off_t(offset)) }
        return read == size ? bytes : nil
    }

    private func readInSequence(_ key: CoverKey) throws -> Data? {
        let reader = try BundleReader(storage.file, options: .init(limits: storage.limits))
        while let item = try reader.next() {
            if case .source(.cover(let path, let bytes)) = item, CoverKey(fileName: path) == key { return bytes }
        }
        return nil
    }
}
