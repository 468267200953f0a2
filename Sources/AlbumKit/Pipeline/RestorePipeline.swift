import Foundation

/// `restore`: replaces the library's albums and state with those of one input (a bundle and
/// its `state.json`), as a change that is not a step of history. Covers are checked and
/// staged like `import`'s and stored only once the whole input has been read; a failure
/// leaves the library, covers included, as it was.
public struct RestorePipeline: Sendable {
    /// Where sources come from.
    public var registry: AdapterRegistry
    /// Reading limits (`limits.*`).
    public var limits: Limits
    /// The folder covers wait in until the restore commits (see ``ImportPipeline/stagingParent``).
    public var stagingParent: URL

    public init(registry: AdapterRegistry, limits: Limits, stagingParent: URL = FileManager.default.temporaryDirectory) {
        self.registry = registry
        self.limits = limits
        self.stagingParent = stagingParent
    }

    /// Replaces what `library` holds with `input`'s albums and state; returns what was read
    /// (`added` is the number of albums the library now holds). `beforeReplacing` runs once the
    /// whole input has been read and checked, before anything is written (`restore --force`
    /// saves the library it replaces there).
    public func run(
        _ input: URL, into library: Library, beforeReplacing: () async throws -> Void = {}
    ) async throws -> ImportSummary {
        let hub = library.hub
        hub.publish(.importStarted(inputs: [input.path]))
        var staging: CoverStaging? = CoverStaging(parent: stagingParent, store: library.storage.covers)
        defer { staging?.discard() }
        var summary = ImportSummary()
        do {
            let reader = InputReader(registry: registry, limits: limits, hub: hub, store: library.storage.covers)
            let contents = try await reader.read(input, staging: &staging)
            let snapshot = try Self.snapshot(of: contents, input: input)
            try await beforeReplacing()
            let added = try await staging?.commit() ?? []
            do {
                try await library.replaceAll(with: snapshot)
            } catch {
                await staging?.rollback(added)
                throw error
            }
            summary.added = snapshot.albums.count
            summary.coversStored = contents.coversRead
            summary.warnings = contents.warnings
        } catch {
            hub.publish(.importFailed(input: input.path, reason: String(describing: error)))
            throw error
        }
        hub.publish(.importFinished(summary))
        return summary
    }

    /// The library the input describes: its albums in order (ids must be unique) and its state,
    /// without a current album that is not among them.
    private static func snapshot(of contents: InputReader.Contents, input: URL) throws -> LibrarySnapshot {
        var ids = Set<AlbumID>()
        for album in contents.albums.map(\.album) where !ids.insert(album.id).inserted {
            throw AlbumKitError(.invalidAlbum, "\(input.path): the album id '\(album.id)' appears twice")
        }
        var state = contents.state ?? LibraryState()
        if let current = state.current, !ids.contains(current) { state.current = nil }
        return LibrarySnapshot(albums: contents.albums.map(\.album), state: state)
    }
}
