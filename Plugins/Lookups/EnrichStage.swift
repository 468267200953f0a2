import AlbumKit

/// `enrich` in `import.stages` (off by default: it asks services on the network about every
/// album): fills each incoming album's empty fields from the enrichers, as `albumkit enrich`
/// does (SPEC 11). An answer the library remembers (or this import got already) is used without
/// asking again; what the services answer is remembered with the imported albums, and the
/// import says how many requests went where. A service that cannot be asked is a warning: the
/// album comes in as it was.
public struct EnrichStage: ImportStage {
    private let enrichers: [any AlbumEnricher]
    private let retryAfterDays: Double
    private var batch: StageBatch?
    /// The library's answers and this import's.
    private var known: [String: LookupAnswer] = [:]

    /// A stage asking `enrichers`, in order.
    public init(enrichers: [any AlbumEnricher], retryAfterDays: Double) {
        self.enrichers = enrichers
        self.retryAfterDays = retryAfterDays
    }

    public var name: String { "enrich" }

    public mutating func begin(_ batch: StageBatch) async throws {
        self.batch = batch
        known = batch.library.state.lookups
    }

    public mutating func process(_ item: ImportItem) async throws -> StageDecision {
        // `validate` runs first and gives every album its id.
        guard let id = item.record.id, let album = try? item.record.validated(newID: id, label: item.label) else { return .pass(item) }
        let lookup = await Enrichment.lookUp(
            album, through: enrichers, known: known, offline: false, retryAfterDays: retryAfterDays)
        known.merge(lookup.answers) { _, new in new }
        batch?.remember(lookup.answers)
        for reason in Set(lookup.answers.values.compactMap(\.failed)).sorted() { batch?.warn("enrich: \(item.label): \(reason)") }
        guard let found = lookup.found else { return .pass(item) }
        var item = item
        item.record = AlbumRecord(Enrichment.filled(album, from: found, overwrite: false).album)
        return .pass(item)
    }

    public mutating func end(_ batch: StageBatch) async throws {
        for note in enrichers.flatMap(\.notes) { batch.warn(note) }
        for enricher in enrichers { batch.countRequests(enricher.requestCounts) }
    }
}

extension ImportStageFactory {
    /// `enrich`: fills incoming albums' empty fields from MusicBrainz and Discogs.
    public static let enrich = ImportStageFactory(
        name: "enrich", summary: "fills empty fields from MusicBrainz and Discogs (asks the network; off by default)"
    ) { context in
        EnrichStage(
            enrichers: try LookupSettings.enrichers.map { try $0.make(context.configuration) },
            retryAfterDays: context.configuration.lookups.retryAfterDays)
    }
}
