import Foundation

/// Covers an import or restore has read but not yet committed.
///
/// New covers go straight into the content-addressed store as they are read, so nothing is
/// written twice: a cover's name is its hash, so one that no album names yet is garbage for
/// `covers prune`, never a wrong cover. A store that keeps covers as files named by their key
/// (``CoverStore/filesFolder``) gets each under its final name, its write-back started as soon
/// as it is written, and ``commit(keeping:)`` flushes the file system once — a file a crash left
/// half-written is found (its bytes differ) and replaced. Any other store gets them a batch at
/// a time (``CoverStore/insert(_:)``: one statement per batch for a database). What the work
/// did not commit — covers of albums a stage dropped, everything when it fails — is taken out
/// again (``discard()``), so the store ends as it was plus exactly the committed covers.
///
/// A restore that first backs the library up stages apart instead: the covers wait as files
/// in a staging folder inside the library folder — locked while in use, so that one a killed
/// process left is swept away later (``LeftoverFiles``) — until ``commit(keeping:)`` hands them to
/// the store. A cover the store already holds is never written again.
struct CoverStaging {
    /// Where covers go before the commit.
    private enum Target {
        /// The store's own folder of cover files.
        case storeFolder(Folder)
        /// The store, a batch at a time.
        case store
        /// A staging folder inside the library folder, handed to the store at the commit.
        case stagingFolder(Folder)
    }

    /// A folder covers are written into, with its path made once: a URL's `path` is decoded
    /// afresh at each call, and an import asks for it once per cover.
    private struct Folder {
        let url: URL
        let path: String

        init(_ url: URL) {
            self.url = url
            path = url.path
        }
    }

    /// Covers per ``CoverStore/insert(_:)`` batch, and the bytes that end a batch early.
    static let batchCovers = 256
    static let batchBytes = 256 << 10

    private let store: any CoverStore
    private let target: Target
    /// The covers this work added (to the store, or to the staging folder), in order.
    private var written: [CoverKey] = []
    /// Covers read but not yet handed to the store (``Target/store``).
    private var batch: [(key: CoverKey, bytes: Data)] = []
    private var batchSize = 0
    private var folderMade = false
    /// Whether the store's own folder was made by this work (it had no covers folder): it goes
    /// again when nothing is committed into it, so a refused import leaves no empty folder.
    private var madeStoreFolder = false
    /// Holds the staging folder's lock (once it is made) for as long as this staging lives.
    private var staging: OwnedFolder?

    /// Staging for `store`: straight into it when `direct`, else into a new folder inside
    /// `parent` (created on the first cover). A restore that first backs the library up stages
    /// apart, so the backup holds none of the incoming covers. Staging folders a killed import
    /// or restore left in `parent`, and temporary cover files in the store's folder, are removed first.
    init(parent: URL, store: any CoverStore, direct: Bool = true) {
        LeftoverFiles.sweep(parent)
        LeftoverFiles.sweepCovers(of: store)
        self.store = store
        if direct, let own = store.filesFolder {
            target = .storeFolder(Folder(own))
        } else if direct {
            target = .store
        } else {
            target = .stagingFolder(Folder(parent.appendingPathComponent("\(LeftoverFiles.stagingPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")))
        }
    }

    /// Keeps `bytes`, which hash to `key`, until ``commit(keeping:)``; returns the folder they wait
    /// in, under `key.fileName` (nil when the store held them before this work began, or takes
    /// them as bytes). It keeps no record of what it was given (the import's ``CarriedCovers``
    /// is that record, and stages a cover once): a cover given twice is handed on twice, which
    /// costs a second write or compare but stores it once.
    mutating func stage(_ bytes: Data, key: CoverKey) async throws -> URL? {
        switch target {
        case .storeFolder(let folder), .stagingFolder(let folder):
            if case .stagingFolder = target {
                guard try await !store.contains(key) else { return nil }
                _ = try write(bytes, key: key, in: folder)
            } else {
                guard try write(bytes, key: key, in: folder) else { return nil }
            }
            written.append(key)
            return folder.url
        case .store:
            batch.append((key, bytes))
            batchSize += bytes.count
            if batch.count >= Self.batchCovers || batchSize >= Self.batchBytes { try await flushBatch() }
            return nil
        }
    }

    /// Makes the covers `keep` accepts (default: every one) part of the store, durably, and
    /// takes out the others this work added; returns those it added. On failure the store has
    /// taken them back before this throws (a caller then calls ``discard()``).
    mutating func commit(keeping keep: ((CoverKey) -> Bool)? = nil) async throws -> [CoverKey] {
        switch target {
        case .store:
            if let keep { batch.removeAll { !keep($0.key) } }
            try await flushBatch()
            let (chosen, dropped) = split(keep)
            await rollback(dropped)
            do {
                try await store.makeDurable()
            } catch {
                await rollback(chosen)
                throw error
            }
            return chosen
        case .stagingFolder(let folder):
            defer { removeStagingFolder(folder.url) }
            return try await insertStaged(split(keep).chosen, from: folder.url)
        case .storeFolder(let folder):
            let (chosen, dropped) = split(keep)
            CoverFiles.remove(dropped, inFolder: folder.path)
            guard !chosen.isEmpty else {
                removeStoreFolderIfMade(folder)
                return []
            }
            do {
                try CoverFiles.flush(folder.url)
            } catch {
                CoverFiles.remove(chosen, inFolder: folder.path)
                throw error
            }
            return chosen
        }
    }

    /// Removes `keys` (what ``commit(keeping:)`` added) from the store again.
    func rollback(_ keys: [CoverKey]) async {
        for key in keys { _ = try? await store.remove(key) }
    }

    /// Takes out what this work added and did not commit: the covers it put into the store,
    /// or the staging folder.
    mutating func discard() async {
        switch target {
        case .store: await rollback(written)
        case .storeFolder(let folder):
            CoverFiles.remove(written, inFolder: folder.path)
            removeStoreFolderIfMade(folder)
        case .stagingFolder(let folder): removeStagingFolder(folder.url)
        }
        written = []
        batch = []
    }

    // MARK: - Batches

    /// Hands the waiting batch to the store; what it newly stored joins `written`.
    private mutating func flushBatch() async throws {
        guard !batch.isEmpty else { return }
        let covers = batch
        batch = []
        batchSize = 0
        written += try await store.insert(covers)
    }

    /// The added covers `keep` accepts (all when nil), and the others; forgets them all. The
    /// chosen are the list of those added itself, cut short, not a copy: a large import's keys
    /// would be held twice at its peak.
    private mutating func split(_ keep: ((CoverKey) -> Bool)?) -> (chosen: [CoverKey], dropped: [CoverKey]) {
        defer { written = [] }
        guard let keep else { return (written, []) }
        let firstDropped = written.partition { !keep($0) }
        let dropped = Array(written[firstDropped...])
        written.removeSubrange(firstDropped...)
        return (written, dropped)
    }

    /// Hands the staged files `keys` to the store a batch at a time; on failure takes back
    /// what earlier batches stored.
    private func insertStaged(_ keys: [CoverKey], from folder: URL) async throws -> [CoverKey] {
        var added: [CoverKey] = []
        do {
            for start in stride(from: 0, to: keys.count, by: Self.batchCovers) {
                let covers = try keys[start..<min(start + Self.batchCovers, keys.count)].map { key in
                    (key: key, bytes: try Data(contentsOf: folder.appendingPathComponent(key.fileName)))
                }
                added += try await store.insert(covers)
            }
            try await store.makeDurable()
        } catch {
            await rollback(added)
            throw error
        }
        return added
    }

    // MARK: - Files

    /// Writes a new cover file (see ``CoverFiles/write(_:toPath:)``), making its folder first.
    private mutating func write(_ bytes: Data, key: CoverKey, in folder: Folder) throws -> Bool {
        if !folderMade {
            switch target {
            case .stagingFolder: staging = try OwnedFolder(at: folder.url)
            default:
                madeStoreFolder = !FileManager.default.fileExists(atPath: folder.path)
                try AtomicFile.makeFolder(folder.url)
            }
            folderMade = true
        }
        return try CoverFiles.write(bytes, toPath: CoverFiles.path(of: key, inFolder: folder.path))
    }

    /// Removes the store's folder when this work made it and it is empty (`rmdir` removes no
    /// folder that another process has written a cover into meanwhile).
    private mutating func removeStoreFolderIfMade(_ folder: Folder) {
        if madeStoreFolder { rmdir(folder.path) }
        madeStoreFolder = false
    }

    /// Removes the staging folder and forgets what waited in it.
    private mutating func removeStagingFolder(_ folder: URL) {
        if folderMade { try? FileManager.default.removeItem(at: folder) }
        written = []
        staging = nil
    }
}
