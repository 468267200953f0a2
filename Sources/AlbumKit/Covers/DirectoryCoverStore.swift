import Foundation
import Synchronization

/// Covers as files `<sha256>.<ext>` in one folder — the store of the file backends.
public struct DirectoryCoverStore: CoverStore {
    /// The folder (created on the first put).
    public let folder: URL
    private let folderPath: String
    /// How far ``insert(_:)`` and ``makeDurable()`` have got, shared by the copies of the store;
    /// nil for covers that wait to be folded into their library's next save.
    private let flushes: Flushes?

    /// The covers in `folder`.
    public init(folder: URL) {
        self.folder = folder
        folderPath = folder.path
        flushes = Flushes()
    }

    /// Covers in `folder` that wait for the next save of their library to fold them into the
    /// file it writes and flushes (a bundle's pending covers): ``insert(_:)`` starts no
    /// write-back and ``makeDurable()`` flushes nothing, so a cover folded in and deleted
    /// before the kernel wrote it back need never reach the disk.
    package init(foldedInBySave folder: URL) {
        self.folder = folder
        folderPath = folder.path
        flushes = nil
    }

    public func put(_ bytes: Data, fileExtension: String) async throws -> CoverKey {
        let key = CoverKey(bytes: bytes, fileExtension: fileExtension)
        let target = url(for: key)
        if !FileManager.default.fileExists(atPath: target.path) {
            try AtomicFile.makeFolder(folder)
            try AtomicFile.write(bytes, to: target)
        }
        return key
    }

    /// Writes the batch's new covers as files, their write-back started at once; ``makeDurable()``
    /// flushes the file system once for all the batches since the last flush, not once per
    /// batch: every flush on a disk is a device flush, and an import writes many batches.
    public func insert(_ covers: [(key: CoverKey, bytes: Data)]) async throws -> [CoverKey] {
        var added: [CoverKey] = []
        do {
            try AtomicFile.makeFolder(folder)
            for (key, bytes) in covers where !added.contains(key) {
                if try CoverFiles.write(bytes, toPath: path(for: key), writingBack: flushes != nil) { added.append(key) }
            }
        } catch {
            CoverFiles.remove(added, inFolder: folderPath)
            throw error
        }
        if !added.isEmpty { flushes?.inserted() }
        return added
    }

    /// Flushes the file system once for the covers inserted since the last flush that
    /// succeeded. A call made while another is flushing flushes again: the other may fail.
    /// Covers folded in by their library's next save have nothing to flush here.
    public func makeDurable() async throws {
        guard let flushes, let batches = flushes.unflushed() else { return }
        try CoverFiles.flush(folder)
        flushes.flushed(upTo: batches)
    }

    public func data(for key: CoverKey) async throws -> Data? {
        FileManager.default.contents(atPath: path(for: key))
    }

    public func contains(_ key: CoverKey) async throws -> Bool {
        FileManager.default.fileExists(atPath: path(for: key))
    }

    /// Sorted in place with no scratch storage, a name repeated in another case kept once: no
    /// set of every key beside the list, which an export would hold at its memory peak.
    public func keys() async throws -> [CoverKey] {
        var keys = try namedKeys()
        keys.sortWithoutScratch()
        var kept = 0
        for index in keys.indices where kept == 0 || keys[index] != keys[kept - 1] {
            keys.swapAt(kept, index)
            kept += 1
        }
        keys.removeSubrange(kept...)
        return keys
    }

    /// The covers the folder's file names name, without sorting them (`list` only asks whether
    /// a key is there, and a sort was much of its time; BENCHMARKS.md); none when the folder
    /// was never made.
    public func keySet() async throws -> Set<CoverKey> {
        // Made at its final size: growing a set rehashes every key at each step.
        Set(try namedKeys())
    }

    /// The key each file name names, in the folder's order. Each name is parsed where
    /// `readdir` left it, never kept as a name: a list of every name first would hold the
    /// folder's names beside their keys. The folder is read twice, counting first, so that the
    /// list is made at its size: grown as it filled, it would hold its old and new storage at
    /// once.
    private func namedKeys() throws -> [CoverKey] {
        guard let directory = opendir(folderPath) else {
            guard errno == ENOENT else { throw AlbumKitError.fileSystem(folderPath, "read the covers folder", errno: errno) }
            return []
        }
        defer { closedir(directory) }
        var count = 0
        try forEachEntry(of: directory) { _ in count += 1 }
        rewinddir(directory)
        var keys: [CoverKey] = []
        keys.reserveCapacity(count)
        try forEachEntry(of: directory) { entry in
            if let key = CoverKey(fileNameBytes: directoryEntryName(entry)) { keys.append(key) }
        }
        return keys
    }

    private func forEachEntry(of directory: OpaquePointer, _ body: (UnsafeMutablePointer<dirent>) -> Void) throws {
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                guard errno == 0 else { throw AlbumKitError.fileSystem(folderPath, "read the covers folder", errno: errno) }
                return
            }
            body(entry)
        }
    }

    public func remove(_ key: CoverKey) async throws -> Int {
        let path = path(for: key)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard unlink(path) == 0 else { return 0 }
        return size
    }

    public func location(of key: CoverKey) -> String? { path(for: key) }

    /// Drops the covers `keys` names (unknown ones are skipped) without measuring what that
    /// frees: a bundle library clears the covers it folded in this way.
    public func remove(_ keys: [CoverKey]) {
        CoverFiles.remove(keys, inFolder: folderPath)
    }

    /// The folder itself: an import writes covers straight into it.
    public var filesFolder: URL? { folder }

    private func url(for key: CoverKey) -> URL { URL(fileURLWithPath: path(for: key)) }
    private func path(for key: CoverKey) -> String { CoverFiles.path(of: key, inFolder: folderPath) }
}

/// Counts the batches ``DirectoryCoverStore/insert(_:)`` wrote and how many of them a flush
/// that succeeded covered.
private final class Flushes: Sendable {
    private let counts = Mutex((inserted: 0, flushed: 0))

    /// One more batch was written.
    func inserted() { counts.withLock { $0.inserted += 1 } }

    /// The number of batches written so far, when some of them are not flushed yet.
    func unflushed() -> Int? {
        counts.withLock { $0.inserted > $0.flushed ? $0.inserted : nil }
    }

    /// A flush begun once `batches` had been written has succeeded.
    func flushed(upTo batches: Int) {
        counts.withLock { $0.flushed = max($0.flushed, batches) }
    }
}
