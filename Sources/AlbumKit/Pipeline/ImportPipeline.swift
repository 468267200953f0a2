import Foundation

/// `import`: reads every input through the source that recognises it, validates each
/// album, stores bundle covers by their SHA-256, then merges everything into the library
/// as one step of history (one `undo` takes a whole import back). Publishes
/// `import.started/progress/albumImported/finished/failed` on the library's hub.
/// A failure anywhere leaves the library as it was.
public struct ImportPipeline: Sendable {
    /// Where sources come from.
    public var registry: AdapterRegistry
    /// Reading limits (`limits.*`).
    public var limits: Limits
    /// What to do with duplicates.
    public var policy: DuplicatePolicy
    /// Report only; write nothing.
    public var dryRun: Bool

    public init(registry: AdapterRegistry, limits: Limits, policy: DuplicatePolicy = .skip, dryRun: Bool = false) {
        self.registry = registry
        self.limits = limits
        self.policy = policy
        self.dryRun = dryRun
    }

    /// Imports `inputs` into `library`.
    public func run(_ inputs: [URL], into library: Library) async throws -> ImportSummary {
        let hub = library.hub
        hub.publish(.importStarted(inputs: inputs.map(\.path)))
        var summary = ImportSummary()
        summary.dryRun = dryRun
        var incoming: [IncomingAlbum] = []
        for input in inputs {
            do {
                try await read(input, into: &incoming, summary: &summary, library: library)
            } catch {
                hub.publish(.importFailed(input: input.path, reason: String(describing: error)))
                throw error
            }
        }
        let planner = ImportPlanner(policy: policy)
        let outcomes: [(Album, ImportOutcome)]
        if dryRun {
            outcomes = planner.plan(incoming, into: await library.snapshot).outcomes
        } else {
            let label = "import \(incoming.count) album\(incoming.count == 1 ? "" : "s")"
            outcomes = try await library.commit(label: label) { snapshot in
                let plan = planner.plan(incoming, into: snapshot)
                return (plan.edits, plan.outcomes.map { AlbumOutcome(album: $0.0, outcome: $0.1) })
            }.map { ($0.album, $0.outcome) }
        }
        for (album, outcome) in outcomes {
            summary.count(outcome)
            hub.publish(.albumImported(album, outcome: outcome))
        }
        hub.publish(.importFinished(summary))
        return summary
    }

    private struct AlbumOutcome: Sendable {
        let album: Album
        let outcome: ImportOutcome
    }

    private func read(
        _ input: URL, into incoming: inout [IncomingAlbum], summary: inout ImportSummary, library: Library
    ) async throws {
        let source = try source(for: input)
        var covers: [String: CoverKey] = [:]
        var albums: [IncomingAlbum] = []
        for try await item in source.items(from: input, limits: limits) {
            switch item {
            case .album(let record, let label):
                let album = try record.validated(newID: .generate(), label: label)
                albums.append(IncomingAlbum(album: album, hadID: record.id != nil))
            case .cover(let path, let bytes):
                let key = try await storeCover(bytes, path: path, input: input, store: library.storage.covers)
                covers[path] = key
                summary.coversStored += 1
            case .warning(let message):
                summary.warnings.append(message)
            case .progress(let read, let total):
                library.hub.publish(.importProgress(input: input.path, albums: albums.count, bytesRead: read, totalBytes: total))
            }
        }
        for index in albums.indices {
            guard let reference = albums[index].album.coverUrl, reference.hasPrefix("covers/") else { continue }
            if let key = covers[reference] {
                albums[index].album.coverUrl = key.bundlePath
            } else if let key = CoverKey(fileName: reference), try await library.storage.covers.contains(key) {
                continue
            } else {
                summary.warnings.append("\(input.path): album '\(albums[index].album.title)' names cover \(reference), which the input lacks; its cover is missing")
            }
        }
        incoming += albums
    }

    private func source(for input: URL) throws -> any AlbumSource {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isFolder) else {
            throw AlbumKitError(.fileSystem, "\(input.path): no such file or folder")
        }
        var prefix: [UInt8] = []
        if !isFolder.boolValue, let handle = FileHandle(forReadingAtPath: input.path) {
            prefix = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
            try? handle.close()
        }
        guard let source = registry.source(forName: input.lastPathComponent + (isFolder.boolValue ? "/" : ""), prefix: prefix) else {
            let names = registry.albumSources.map(\.name).joined(separator: ", ")
            throw AlbumKitError(.unsupported, "\(input.path): no album source reads this input (registered: \(names))")
        }
        return source
    }

    /// Stores a bundle cover whose name must be the SHA-256 of its bytes.
    private func storeCover(_ bytes: Data, path: String, input: URL, store: any CoverStore) async throws -> CoverKey {
        guard let named = CoverKey(fileName: path) else {
            throw AlbumKitError.unreadable("\(input.path) entry \(path)", "a cover must be named covers/<sha256>.<ext>")
        }
        let actual = CoverKey(bytes: bytes, fileExtension: named.fileExtension)
        guard actual == named else {
            throw AlbumKitError.unreadable("\(input.path) entry \(path)", "the cover's bytes hash to \(actual.sha256), not to its name")
        }
        return dryRun ? actual : try await store.put(bytes, fileExtension: named.fileExtension)
    }
}
