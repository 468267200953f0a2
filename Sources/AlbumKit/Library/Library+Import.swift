import Foundation

extension Library {
    /// Imports `inputs` through the import pipeline (sources, the stages `import.stages`
    /// names, one commit); with `fetchCovers`, then fetches the covers of what came in.
    public func importAlbums(
        from inputs: [URL], options: ImportOptions = ImportOptions(), fetchCovers: Bool = false
    ) async throws -> (report: ImportReport, covers: CoverFetchSummary?) {
        let pipeline = ImportPipeline(registry: registry, configuration: configuration, options: options)
        guard fetchCovers && !options.dryRun else { return (try await importAlbums(from: inputs, through: pipeline), nil) }
        let (report, covers) = try await fetchingCovers { try await importAlbums(from: inputs, through: pipeline) }
        return (report, covers)
    }

    /// Imports `inputs` through `pipeline` (its adapters, settings and options): it reads them
    /// and runs the stages; then — only when every stage has seen every album — this keeps
    /// the covers of the albums that arrive (durably; the others go) and merges the albums
    /// into the library as one step of history (one `undo` takes a whole import back, whatever
    /// its stages changed). Publishes `import.started`, the pipeline's `import.progress` and
    /// `pipeline.stageFinished`, the library's events for the change, `import.albumImported`
    /// for each album, then `import.finished` or `import.failed`. A failure anywhere leaves
    /// the library, covers included, as it was. A dry run writes nothing and returns the plan
    /// album by album.
    public func importAlbums(from inputs: [URL], through pipeline: ImportPipeline) async throws -> ImportReport {
        hub.publish(.importStarted(inputs: inputs.map(\.path)))
        do {
            var prepared = try await pipeline.prepare(inputs, library: { try await snapshot() }, covers: storage.covers, hub: hub)
            if var staging = prepared.staging {
                do {
                    try await commit(prepared, staging: &staging, report: &prepared.report)
                } catch {
                    await staging.discard()
                    throw error
                }
            }
            hub.publish(.importFinished(prepared.report.summary))
            return prepared.report
        } catch {
            hub.publish(.importFailed(input: inputs.map(\.path).joined(separator: ", "), reason: String(describing: error)))
            throw error
        }
    }

    /// Stores the covers the survivors carry, then merges them, read back one at a time, as one
    /// step of history, with the stages' `lookups` answers in the same save; takes the covers
    /// back when the merge fails. Counts each album's outcome in `report` and publishes it.
    private func commit(_ prepared: PreparedImport, staging: inout CoverStaging, report: inout ImportReport) async throws {
        let survivors = prepared.survivors
        var used: [CoverKey] = []
        // Read back for their covers only when some carry one: a CSV's albums carry none, and
        // decoding all of them once more for nothing was a pass of its own (BENCHMARKS.md).
        if prepared.survivorsWithCovers > 0 {
            used.reserveCapacity(prepared.survivorsWithCovers)
            var reading = survivors.reader()
            while let item = try reading.next() {
                if let key = item.cover?.key { used.append(key) }
            }
        }
        // Sorted and halved: a sorted array of keys takes far less than a set of them.
        used.sortWithoutScratch()
        let added = try await staging.commit { [used] in used.sortedContains($0) }
        used = []
        let commit: ImportCommit
        do {
            var items = survivors.reader()
            commit = try await mergeImport(expecting: survivors.count, lookups: prepared.lookups) { try items.next() }
        } catch {
            await staging.rollback(added)
            throw error
        }
        // The albums are read back for `import.albumImported` only when a subscriber takes it.
        guard hub.takes("import.albumImported") else {
            for outcome in commit.outcomes { report.summary.count(outcome) }
            return
        }
        try commit.forEach { album, outcome in
            report.summary.count(outcome)
            hub.publish(.albumImported(album, outcome: outcome))
        }
    }

    /// Merges the `count` albums `next` gives — those that passed every stage — as one step of
    /// history, by what `dedupe` decided for each, against the library as it is under the
    /// lock: a replacement of an album that is gone is added instead; an id taken meanwhile
    /// gets a new one. Updates come first, then the new albums in input order at the end,
    /// written to a scratch file as they are merged and read back from it by the save, so
    /// that a large import holds none of them at once. `lookups` (what services answered the
    /// stages) go into the memento in the same save.
    func mergeImport(
        expecting count: Int, lookups: [String: LookupAnswer] = [:], from next: () throws -> ImportItem?
    ) async throws -> ImportCommit {
        try await change { albums, plan in
            let library = try await albums.albums(in: 0..<(try await albums.count()))
            var merge = try ImportMerge(library, expecting: count, scratch: configuration.libraryDirectory)
            while let item = try next() { try merge.add(item) }
            let commit = try merge.finish()
            let merged = commit.outcomes.count
            plan.record("import \(merged) album\(merged == 1 ? "" : "s")", commit.updates, appending: commit.run, at: library.count)
            if !commit.updates.isEmpty || commit.run.count > 0 { plan.covers = commit.resolutions }
            plan.lookups = lookups
            return commit
        }
    }
}

/// What an import's commit merged: the new albums (a run in a scratch file), the albums it
/// replaced, and each album's outcome in input order.
struct ImportCommit: Sendable {
    /// The new albums, in input order, appended at the end of the library.
    let run: AlbumRun
    /// The changes to albums the library held.
    let updates: [LibraryEdit]
    /// Each replacement, in input order (of the library's albums, and of earlier ones of the import).
    let replaced: [Album]
    /// Each merged album's outcome, in input order.
    let outcomes: [ImportOutcome]
    /// Cover references the import resolved to carried bytes, for the memento.
    let resolutions: [String: CoverResolution]

    /// Calls `body` with each merged album and its outcome, in input order: the new ones read
    /// back from the run, as they were added.
    func forEach(_ body: (Album, ImportOutcome) -> Void) throws {
        var added = run.readerAsWritten()
        var replacements = replaced.makeIterator()
        for outcome in outcomes {
            let album = outcome == .replaced ? replacements.next() : try added.next()
            if let album { body(album, outcome) }
        }
    }
}

/// Builds an import's change against the library under the lock, an album at a time.
private struct ImportMerge {
    private let library: [Album]
    private var indexOf: [AlbumID: Int] = [:]
    /// The place in the run of each new album, by its id's fingerprint: a fraction of what
    /// ids and positions in a dictionary take (BENCHMARKS.md).
    private var placeOf: FingerprintTable
    private var run: SpilledRun.Writer
    private var updates: [LibraryEdit] = []
    private var replaced: [Album] = []
    private var outcomes: [ImportOutcome] = []
    private var resolutions: [String: CoverResolution] = [:]

    /// A merge into `library` of `expected` albums, with room for each one's place and outcome
    /// made at once; the new albums go to a scratch file in `scratch`.
    init(_ library: [Album], expecting expected: Int, scratch: URL) throws {
        self.library = library
        indexOf.reserveCapacity(library.count)
        for (index, album) in library.enumerated() { indexOf[album.id] = index }
        placeOf = FingerprintTable(minimumCapacity: expected)
        outcomes.reserveCapacity(expected)
        run = try SpilledRun.Writer(in: scratch)
    }

    mutating func add(_ item: ImportItem) throws {
        var album = try item.album(newID: .generate())
        if let payload = item.cover, let reference = album.coverUrl, !CoverReference.isInFolder(reference) {
            resolutions[reference] = .stored(payload.key)
        }
        if case .replace(let id) = item.disposition, replace(id, with: &album) { return }
        var fingerprint = TextFingerprint(album.id.rawValue)
        if indexOf[album.id] != nil || placeOf[fingerprint] != nil {
            album.id = .generate()
            fingerprint = TextFingerprint(album.id.rawValue)
        }
        placeOf[fingerprint] = UInt32(run.count)
        try run.append(album)
        outcomes.append(item.disposition == .copy ? .kept : .added)
    }

    /// The change, once every album is added.
    consuming func finish() throws -> ImportCommit {
        ImportCommit(run: AlbumRun(try run.finish()), updates: updates, replaced: replaced, outcomes: outcomes, resolutions: resolutions)
    }

    /// Replaces the held album `id` (in the library or added earlier by this import); false
    /// when it is held nowhere.
    private mutating func replace(_ id: AlbumID, with album: inout Album) -> Bool {
        album.id = id
        if let index = indexOf[id] {
            let before = library[index]
            if before != album { updates.append(.update(before: before, after: album)) }
        } else if let place = placeOf[TextFingerprint(id.rawValue)] {
            run.replace(at: Int(place), with: album)
        } else {
            return false
        }
        replaced.append(album)
        outcomes.append(.replaced)
        return true
    }
}
