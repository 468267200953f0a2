import Foundation

/// Covers an import or restore has read but not yet committed. They wait as files in a
/// staging folder (inside the library folder) until every input has been read and checked;
/// ``commit(_:)`` then puts them into the library's ``CoverStore``. When the work fails,
/// ``rollback(_:)`` takes back what `commit` put and ``discard()`` deletes the folder, so the
/// store is exactly as it was. A cover the store already holds is never staged. The folder is
/// locked while it is in use, so the one a killed process left is swept away later
/// (``LeftoverFiles``).
struct CoverStaging {
    private let parent: URL
    private var folder: OwnedFolder?
    private let store: any CoverStore
    private var staged: [CoverKey] = []
    private var stagedKeys = Set<CoverKey>()

    /// Staging for `store`, in a new folder inside `parent` (created on the first cover).
    /// Staging folders a killed import or restore left in `parent` are removed first.
    init(parent: URL, store: any CoverStore) {
        LeftoverFiles.sweep(parent)
        self.parent = parent
        self.store = store
    }

    /// Keeps `bytes`, which hash to `key`, until ``commit(_:)``; returns where they wait (nil
    /// when the store already holds them).
    mutating func stage(_ bytes: Data, key: CoverKey) async throws -> URL? {
        if stagedKeys.contains(key), let folder { return folder.url.appendingPathComponent(key.fileName) }
        guard try await !store.contains(key) else { return nil }
        let folder = try folder ?? OwnedFolder(inside: parent, prefix: LeftoverFiles.stagingPrefix)
        self.folder = folder
        let url = folder.url.appendingPathComponent(key.fileName)
        let path = url.path
        // Not synced one by one: the store makes all of them durable at once when it adopts them.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AlbumKitError.fileSystem(path, "stage the cover", errno: errno) }
        defer { close(fd) }
        try bytes.withUnsafeBytes { try AtomicFile.writeAll(fd, $0, path: path) }
        staged.append(key)
        stagedKeys.insert(key)
        return url
    }

    /// Puts the staged covers `keys` names (default: every one) into the store, which may
    /// move the files in; returns those it put. On failure the store has taken them back
    /// before this throws.
    func commit(_ keys: Set<CoverKey>? = nil) async throws -> [CoverKey] {
        guard let folder else { return [] }
        let chosen = keys.map { keys in staged.filter(keys.contains) } ?? staged
        return try await store.adopt(chosen.map { ($0, folder.url.appendingPathComponent($0.fileName)) })
    }

    /// Removes `keys` (what ``commit()`` put) from the store again.
    func rollback(_ keys: [CoverKey]) async {
        for key in keys { _ = try? await store.remove(key) }
    }

    /// Deletes the staging folder and everything in it.
    func discard() {
        guard let folder else { return }
        try? FileManager.default.removeItem(at: folder.url)
    }
}
