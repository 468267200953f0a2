import Foundation

/// What a run of `enrich` did.
public struct EnrichSummary: Sendable, Hashable {
    /// One album enrich changed (or, in a dry run, would change), and how.
    public struct Enriched: Sendable, Hashable {
        public let position: Int
        public let album: Album
        public let changes: [Enrichment.Change]
    }

    /// How many albums were looked up.
    public var albums = 0
    /// The albums changed, in library order.
    public var enriched: [Enriched] = []
    /// How many albums had each field filled, by field name (`label`; ids as `ids`).
    public var filled: [String: Int] = [:]
    /// Requests sent to each service.
    public var requests: [String: Int] = [:]
    /// An album a service could not be asked about, and why.
    public struct Failure: Sendable, Hashable {
        public let album: AlbumID
        public let reason: String
    }

    /// Albums a service could not be asked about.
    public var failures: [Failure] = []
    /// What the enrichers had to say once about the run.
    public var notes: [String] = []

    public init() {}
}

extension Library {
    /// Fills the empty fields (every one with `overwrite`) of the albums `query` selects from
    /// what the registered enrichers find (SPEC 11). What the services answered is remembered
    /// in the library (read by key, album by album), so a later run (or `covers fetch`) asks no service again about an album
    /// it answered; `offline`: no service is asked, only those answers are used. The answers and
    /// the albums filled are one save and one step of history, written against the albums as
    /// they are then (read one by one where they were listed, not the whole library).
    /// `dryRun`: nothing is changed or remembered; the summary says what would be filled.
    public func enrich(matching query: AlbumQuery = .all, overwrite: Bool = false, offline: Bool = false, dryRun: Bool = false) async throws -> EnrichSummary {
        let enrichers = try registry.makeEnrichers(configuration)
        let listed = try await listed(matching: query)
        var summary = EnrichSummary()
        summary.albums = listed.count
        hub.publish(.enrichStarted(albums: listed.count))
        var answers: [String: LookupAnswer] = [:]
        var found: [(index: Int, id: AlbumID, facts: Album)] = []
        for entry in listed {
            // The library's answers about this album, and this run's: another album of the same
            // identity earlier in the run answered it.
            let keys = Enrichment.lookupKeys(for: entry.album, through: enrichers)
            var known = try await lookupAnswers(keys)
            for key in keys { if let answer = answers[key] { known[key] = answer } }
            let lookup = await Enrichment.lookUp(
                entry.album, through: enrichers, known: known, offline: offline, retryAfterDays: configuration.lookups.retryAfterDays)
            answers.merge(lookup.answers) { _, new in new }
            for reason in Set(lookup.answers.values.compactMap(\.failed)).sorted() {
                summary.failures.append(.init(album: entry.album.id, reason: reason))
            }
            var changes: [Enrichment.Change] = []
            if let facts = lookup.found {
                found.append((entry.position - 1, entry.album.id, facts))
                changes = Enrichment.filled(entry.album, from: facts, overwrite: overwrite).changes
                if !changes.isEmpty { summary.enriched.append(.init(position: entry.position, album: entry.album, changes: changes)) }
            }
            hub.publish(.albumEnriched(entry.album.id, fields: changes.map(\.field)))
        }
        for enriched in summary.enriched {
            for name in Set(enriched.changes.map { $0.field.hasPrefix("ids.") ? "ids" : $0.field }) { summary.filled[name, default: 0] += 1 }
        }
        for enricher in enrichers {
            summary.requests.merge(enricher.requestCounts, uniquingKeysWith: +)
            summary.notes += enricher.notes
        }
        hub.publish(.enrichFinished(albums: listed.count, enriched: summary.enriched.count))
        guard !dryRun, !answers.isEmpty || !found.isEmpty else { return summary }
        let (remembered, filling) = (answers, found)
        try await change { albums, plan in
            plan.lookups = remembered
            // Filled against the albums as they are under the lock.
            var edits: [LibraryEdit] = []
            for (index, id, facts) in filling {
                guard let (_, album) = try await albums.album(withID: id, near: index) else { continue }
                let changed = Enrichment.filled(album, from: facts, overwrite: overwrite).album
                if changed != album { edits.append(.update(before: album, after: changed)) }
            }
            plan.record("enrich", edits)
        }
        return summary
    }
}
