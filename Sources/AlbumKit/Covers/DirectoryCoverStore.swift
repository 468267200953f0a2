import Foundation
import Synchronization

/// Covers as files `<sha256>.<ext>` in one folder — the store of the file backends.
public struct DirectoryCoverStore: CoverStore {
    /// The folder (created on the first put).
    public let folder: URL
    private let folderPath: String
    /// Whether ``insert(_:)`` wrote covers that ``makeDurable()`` has not flushed yet.
    private let unflushed = Flag()

    /// The covers in `folder`.
    public init(folder: URL) {
        self.folder = folder
        folderPath = folder.path
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
    /// flushes the file system once for every batch (an import of 10 000 covers flushed 1 100
    /// times, once per batch).
    public func insert(_ covers: [(key: CoverKey, bytes: Data)]) async throws -> [CoverKey] {
        var added: [CoverKey] = []
        do {
            try AtomicFile.makeFolder(folder)
            for (key, bytes) in covers where !added.contains(key) {
                if try CoverFiles.write(bytes, toPath: path(for: key)) { added.append(key) }
            }
        } catch {
            CoverFiles.remove(added, inFolder: folderPath)
            throw error
        }
        if !added.isEmpty { unflushed.set(true) }
        return added
    }

    /// Flushes the file system once for the covers inserted since the last flush.
    public func makeDurable() async throws {
        guard unflushed.exchange(false) else { return }
        do {
            try CoverFiles.flush(folder)
        } catch {
            unflushed.set(true)
            throw error
        }
    }

    public func data(for key: CoverKey) async throws -> Data? {
        FileManager.default.contents(atPath: path(for: key))
    }

    public func contains(_ key: CoverKey) async throws -> Bool {
        FileManager.default.fileExists(atPath: path(for: key))
    }

    public func keys() async throws -> [CoverKey] {
        try await keySet().sorted()
    }

    /// The covers the folder's file names name, without sorting them (a third of `list` on
    /// 100 000 covers went into the sort). Each name is parsed where `readdir` left it: a list of
    /// every name first held 10 MB at 100 000 covers.
    public func keySet() async throws -> Set<CoverKey> {
        guard let directory = opendir(folderPath) else { return [] }
        defer { closedir(directory) }
        var keys: [CoverKey] = []
        while let entry = readdir(directory) {
            let key = withUnsafeBytes(of: entry.pointee.d_name) { name in
                CoverKey(fileNameBytes: UnsafeBufferPointer(rebasing: name.bindMemory(to: UInt8.self).prefix { $0 != 0 }))
            }
            if let key { keys.append(key) }
        }
        // Made at its final size: growing a set rehashes every key at each step.
        return Set(keys)
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

/// A flag shared by the copies of a store.
private final class Flag: Sendable {
    private let value = Mutex(false)

    func set(_ newValue: Bool) { value.withLock { $0 = newValue } }

    /// Sets `newValue` and returns what it was.
    func exchange(_ newValue: Bool) -> Bool {
        value.withLock { old in
            defer { old = newValue }
            return old
        }
    }
}
