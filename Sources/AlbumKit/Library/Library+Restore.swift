import Foundation

/// What a restore did.
public struct RestoreReport: Sendable, Hashable {
    /// Albums the library now holds.
    public var albums: Int
    /// Covers the input carried.
    public var covers: Int
    /// Where the library it replaced was saved, when it held albums.
    public var backup: String?
    /// Problems that did not stop it (a referenced cover the bundle lacks).
    public var warnings: [String]
}

extension Library {
    /// Replaces the library's albums, memento and covers with those of `input` (a bundle and
    /// its `state.json`). A library that holds albums is replaced only with `force`, and is
    /// first saved as a bundle in `backups/` (the report says where). The input is read and
    /// checked whole before anything is written; a failure leaves the library, covers
    /// included, as it was. Not a step of history. Publishes `restore.started`,
    /// `restore.progress` while reading, `restore.finished` or `restore.failed`.
    @discardableResult
    public func restore(from input: URL, force: Bool = false) async throws -> RestoreReport {
        hub.publish(.restoreStarted(input: input.path))
        var staging: CoverStaging?
        do {
            let current = try await snapshot()
            if !current.albums.isEmpty && !force {
                throw AlbumKitError(.libraryState, "the library at \(location) holds \(current.albums.count) albums; restoring \(input.path) would replace them: add --force (the library is saved to backups/ first)")
            }
            staging = CoverStaging(parent: configuration.libraryDirectory, store: storage.covers, direct: current.albums.isEmpty)
            let reader = InputReader(registry: registry, configuration: configuration, hub: hub, progress: LibraryEvent.restoreProgress)
            let (items, read) = try await reader.read([input], staging: &staging)
            let (replacement, steps) = try Self.snapshot(of: items, read, input: input)
            var warnings = read.warnings
            var missing = MissingCoverWarnings()
            for album in replacement.albums {
                guard let reference = album.coverUrl, CoverReference.isInFolder(reference), read.covers[reference] == nil else { continue }
                if let key = CoverKey(fileName: reference), try await storage.covers.contains(key) { continue }
                if let warning = missing.note(input: input.path, title: album.title, reference: reference) { warnings.append(warning) }
            }
            warnings += missing.counted
            let backup = current.albums.isEmpty ? nil : try await backUp(contents(of: current))
            let added = try await staging?.commit() ?? []
            do {
                try await replaceAll(with: replacement, steps: steps)
            } catch {
                await staging?.rollback(added)
                throw error
            }
            hub.publish(.restoreFinished(input: input.path, albums: replacement.albums.count, backup: backup?.path))
            return RestoreReport(albums: replacement.albums.count, covers: read.coversRead, backup: backup?.path, warnings: warnings)
        } catch {
            await staging?.discard()
            hub.publish(.restoreFailed(input: input.path, reason: String(describing: error)))
            throw error
        }
    }

    /// The library the input describes: its albums in order, each valid, ids unique, and its
    /// memento without a current album that is not among them.
    private static func snapshot(
        of items: Spilled<ImportItem>, _ contents: InputReader.Contents, input: URL
    ) throws -> (LibrarySnapshot, [Int64: HistoryStep]) {
        var ids = Set<AlbumID>()
        var albums: [Album] = []
        albums.reserveCapacity(items.count)
        var items = items.reader()
        while let item = try items.next() {
            let album = try item.record.validated(newID: .generate(), label: item.label)
            guard ids.insert(album.id).inserted else {
                throw AlbumKitError(.invalidAlbum, "\(input.path): the album id '\(album.id)' appears twice")
            }
            albums.append(album)
        }
        var (state, steps) = (contents.state ?? StateFile()).memento()
        if let current = state.current, !ids.contains(current) { state.current = nil }
        return (LibrarySnapshot(albums: albums, state: state), steps)
    }
}
