import Foundation

extension Library {
    /// Imports `inputs` through the import pipeline (sources, the stages `import.stages`
    /// names, one commit); with `fetchCovers`, then fetches the covers of what came in.
    public func importAlbums(
        from inputs: [URL], options: ImportOptions = ImportOptions(), fetchCovers: Bool = false
    ) async throws -> (report: ImportReport, covers: CoverFetchSummary?) {
        let pipeline = ImportPipeline(registry: registry, configuration: configuration, options: options)
        guard fetchCovers && !options.dryRun else { return (try await pipeline.run(inputs, into: self), nil) }
        var report: ImportReport?
        let covers = try await fetchingCovers { report = try await pipeline.run(inputs, into: self) }
        return (report!, covers)
    }

    /// Merges the albums that passed every stage as one step of history, by what `dedupe`
    /// decided for each, against the library as it is under the lock: a replacement of an album
    /// that is gone is added instead; an id taken meanwhile gets a new one. Updates come first,
    /// then the new albums in input order at the end. Returns each album's outcome in input order.
    /// Empties `items` once they are merged, before the save, so that the save of a large import
    /// does not hold them (their labels, covers and fields as read) beside the albums.
    func commitImport(_ items: inout [ImportItem]) async throws -> [ImportedAlbum] {
        let label = "import \(items.count) album\(items.count == 1 ? "" : "s")"
        return try await commit(label: label) { snapshot in
            var merge = ImportMerge(snapshot, expecting: items.count)
            for item in items { try merge.add(item) }
            items = []
            return (merge.takeEdits(), merge.resolutions, merge.outcomes)
        }
    }
}

/// One album an import merged, as it was merged, and what became of it.
struct ImportedAlbum: Sendable {
    let album: Album
    let outcome: ImportOutcome
}

/// Builds an import's edits against one snapshot.
private struct ImportMerge {
    private let count: Int
    private var indexOf: [AlbumID: Int] = [:]
    private var updates: [LibraryEdit] = []
    private var inserts: [LibraryEdit] = []
    private var insertIndex: [AlbumID: Int] = [:]
    private let albums: [Album]
    private(set) var outcomes: [ImportedAlbum] = []
    private(set) var resolutions: [String: CoverResolution] = [:]

    /// A merge into `snapshot` of `expected` albums, with room for each one's outcome and
    /// insert made at once: grown by doubling, the arrays of a large import would hold a third
    /// more than they need, and their old and new storage at each step.
    init(_ snapshot: LibrarySnapshot, expecting expected: Int) {
        albums = snapshot.albums
        count = snapshot.albums.count
        indexOf.reserveCapacity(count)
        for (index, album) in snapshot.albums.enumerated() { indexOf[album.id] = index }
        inserts.reserveCapacity(expected)
        outcomes.reserveCapacity(expected)
    }

    /// The updates, then the new albums in input order at the end; the merge keeps none of them.
    /// Most imports update nothing, and their edits are the inserts' own array, not a copy.
    mutating func takeEdits() -> [LibraryEdit] {
        defer { updates = []; inserts = [] }
        return updates.isEmpty ? inserts : updates + inserts
    }

    mutating func add(_ item: ImportItem) throws {
        var album = try item.record.validated(newID: .generate(), label: item.label)
        if let payload = item.cover, let reference = album.coverUrl, !reference.hasPrefix("covers/") {
            resolutions[reference] = .stored(payload.key)
        }
        if case .replace(let id) = item.disposition, replace(id, with: &album) { return }
        if indexOf[album.id] != nil || insertIndex[album.id] != nil { album.id = .generate() }
        insertIndex[album.id] = inserts.count
        inserts.append(.insert(album, at: count + inserts.count))
        outcomes.append(ImportedAlbum(album: album, outcome: item.disposition == .copy ? .kept : .added))
    }

    /// Replaces the held album `id` (in the library or added earlier by this import); false
    /// when it is held nowhere.
    private mutating func replace(_ id: AlbumID, with album: inout Album) -> Bool {
        album.id = id
        if let index = indexOf[id] {
            let before = albums[index]
            if before != album { updates.append(.update(before: before, after: album)) }
        } else if let index = insertIndex[id] {
            inserts[index] = .insert(album, at: count + index)
        } else {
            return false
        }
        outcomes.append(ImportedAlbum(album: album, outcome: .replaced))
        return true
    }
}
