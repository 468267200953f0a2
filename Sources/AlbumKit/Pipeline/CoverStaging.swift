import CFileSync
import Foundation

/// Covers an import or restore has read but not yet committed.
///
/// A store that keeps covers as files named by their key (``CoverStore/filesFolder``) gets
/// each new cover at once, under its final name, with its write-back started as soon as it is
/// written; ``commit(_:)`` then flushes the file system once. A cover's name is its hash, so a
/// file nothing names yet is garbage for `covers prune`, never a wrong cover — and a file a
/// crash left half-written is found (its bytes differ) and replaced. What the work did not
/// commit — covers of albums a stage dropped, everything when it fails — is removed again, so
/// the store ends as it was plus exactly the committed covers.
///
/// Other stores get the covers at the commit (``CoverStore/adopt(_:)``), from files waiting in
/// a staging folder inside the library folder, locked while in use so that one a killed process
/// left is swept away later (``LeftoverFiles``). A cover the store already holds is never
/// written again.
struct CoverStaging {
    private let store: any CoverStore
    /// Where new covers are written: the store's own folder, or a staging folder.
    private let folder: URL
    private let writesIntoStore: Bool
    /// The covers written to `folder` by this work, in order.
    private var written: [CoverKey] = []
    private var writtenKeys = Set<CoverKey>()
    private var folderMade = false
    /// Holds the staging folder's lock (once it is made) for as long as this staging lives.
    private var staging: OwnedFolder?

    /// Staging for `store`: its own folder when it has one (and `direct`), else a new folder
    /// inside `parent` (created on the first cover). A restore that first backs the library up
    /// stages apart, so the backup holds none of the incoming covers. Staging folders a killed
    /// import or restore left in `parent` are removed first.
    init(parent: URL, store: any CoverStore, direct: Bool = true) {
        LeftoverFiles.sweep(parent)
        self.store = store
        if direct, let own = store.filesFolder {
            folder = own
            writesIntoStore = true
        } else {
            folder = parent.appendingPathComponent("\(LeftoverFiles.stagingPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            writesIntoStore = false
        }
    }

    /// Keeps `bytes`, which hash to `key`, until ``commit(_:)``; returns where they are (nil
    /// when the store held them before this work began).
    mutating func stage(_ bytes: Data, key: CoverKey) async throws -> URL? {
        let url = folder.appendingPathComponent(key.fileName)
        if writtenKeys.contains(key) { return url }
        if writesIntoStore {
            guard try write(bytes, to: url) else { return nil }
        } else {
            guard try await !store.contains(key) else { return nil }
            _ = try write(bytes, to: url)
        }
        written.append(key)
        writtenKeys.insert(key)
        return url
    }

    /// Makes the covers `keys` names (default: every one) part of the store, durably, and
    /// removes the others this work wrote; returns those it added. On failure the store has
    /// taken them back before this throws.
    mutating func commit(_ keys: Set<CoverKey>? = nil) async throws -> [CoverKey] {
        let chosen = keys.map { keys in written.filter(keys.contains) } ?? written
        guard writesIntoStore else {
            return try await store.adopt(chosen.map { ($0, folder.appendingPathComponent($0.fileName)) })
        }
        if let keys { remove(written.filter { !keys.contains($0) }) }
        written = []
        guard !chosen.isEmpty else { return [] }
        do {
            try flushFileSystem()
        } catch {
            remove(chosen)
            throw error
        }
        return chosen
    }

    /// Removes `keys` (what ``commit(_:)`` added) from the store again.
    func rollback(_ keys: [CoverKey]) async {
        for key in keys { _ = try? await store.remove(key) }
    }

    /// Removes what this work wrote and did not commit: the staging folder, or the covers it
    /// wrote into the store.
    func discard() {
        guard !written.isEmpty else { return }
        if writesIntoStore { remove(written) } else { try? FileManager.default.removeItem(at: folder) }
    }

    // MARK: - Files

    /// Writes a new cover file, starting its write-back; false when `url` already holds
    /// exactly these bytes. A file there with other bytes (a crash's leftover) is replaced.
    private mutating func write(_ bytes: Data, to url: URL) throws -> Bool {
        if !folderMade {
            if writesIntoStore { try AtomicFile.makeFolder(folder) } else { staging = try OwnedFolder(at: folder) }
            folderMade = true
        }
        let path = url.path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            guard code == EEXIST else { throw AlbumKitError.fileSystem(path, "store the cover", errno: code) }
            if FileManager.default.contents(atPath: path) == bytes { return false }
            try AtomicFile.write(bytes, to: url, syncingFolder: false)
            return true
        }
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { try AtomicFile.writeAll(descriptor, $0, path: path) }
        // The disk starts on it now, while the next cover is read; the commit waits for all.
        _ = albumkit_start_writeback(descriptor)
        return true
    }

    /// Waits until every cover written is on disk, and their names in the folder.
    private func flushFileSystem() throws {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AlbumKitError.fileSystem(folder.path, "open the covers folder", errno: errno) }
        defer { close(descriptor) }
        guard albumkit_sync_file_system(descriptor) == 0, fsync(descriptor) == 0 else {
            throw AlbumKitError.fileSystem(folder.path, "flush the covers to disk", errno: errno)
        }
    }

    private func remove(_ keys: [CoverKey]) {
        for key in keys { unlink(folder.appendingPathComponent(key.fileName).path) }
    }
}
