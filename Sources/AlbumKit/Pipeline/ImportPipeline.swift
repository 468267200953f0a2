import Foundation

/// `import`: source → stages in `import.stages` order; ``Library/importAlbums(from:through:)``
/// then commits what they made.
///
/// Reads every input through the source that recognises it (covers checked against their
/// SHA-256 names and written straight into the library's cover store; see ``CoverStaging``) — the
/// source reading ahead on one core while the covers are hashed and written on another
/// (``ReadAhead``) — and runs each album through the stages. A dry run stages nothing and
/// reports the plan album by album.
public struct ImportPipeline: Sendable {
    /// Where sources and stages come from.
    public var registry: AdapterRegistry
    /// Limits, the stage list, file roots, the library folder (where covers wait).
    public var configuration: Configuration
    /// Duplicates, dry run, a forced source.
    public var options: ImportOptions

    /// An import with these adapters, settings and options.
    public init(registry: AdapterRegistry, configuration: Configuration, options: ImportOptions = ImportOptions()) {
        self.registry = registry
        self.configuration = configuration
        self.options = options
    }

    /// Reads `inputs` and runs their albums through the stages, against the library
    /// `snapshot` gives (taken once the inputs are read) and the covers `store` holds; the
    /// covers the inputs carry wait in the returned staging until the commit. Publishes
    /// `import.progress` and `pipeline.stageFinished` on `hub` as it goes. Commits nothing:
    /// what it made goes back to ``Library/importAlbums(from:through:)``, which commits it.
    /// On failure, the covers it staged are gone.
    func prepare(
        _ inputs: [URL], library snapshot: @Sendable () async throws -> LibrarySnapshot, covers store: any CoverStore, hub: NotificationHub
    ) async throws -> PreparedImport {
        let stagePlan = try StagePlan(configuration: configuration, registry: registry)
        var staging = options.dryRun ? nil : CoverStaging(parent: configuration.libraryDirectory, store: store)
        do {
            let reader = InputReader(registry: registry, configuration: configuration, hub: hub, forcedSource: options.format, strict: options.strict)
            var run = StageRun(stages: try stagePlan.makeStages(configuration), dryRun: options.dryRun)
            let scratch = configuration.libraryDirectory
            let isStored: @Sendable (CoverKey) async -> Bool = { (try? await store.contains($0)) == true }
            var contents: InputReader.Contents
            let survivors: Spilled<ImportItem>
            let answers: [String: LookupAnswer]
            let requests: [String: Int]
            do {
                let batch: StageBatch
                if try inputs.allSatisfy({ try !reader.source(for: SourceInput(at: $0)).carriesCovers }) {
                    // No cover to wait for: each album goes through the stages as it is read,
                    // with no scratch file between (one write and one read of every album less),
                    // and the stages' work beside the reading's.
                    batch = StageBatch(library: try await snapshot(), options: options, hub: hub, isStored: isStored)
                    (contents, survivors) = try await ScratchFolder.$current.withValue(scratch) {
                        try await run.begin(batch, scratch: scratch)
                        let contents: InputReader.Contents
                        do {
                            contents = try await reader.read(inputs, staging: &staging, albums: &run)
                        } catch {
                            // An input that failed to read after the stages began (unreadable,
                            // refused by --strict or a limit) left them sound: they end as after
                            // their last album (a plugin's program finishes, not stopped), what
                            // they made let go, and the import fails with the reading's error.
                            if !run.stageFailed { _ = try? await run.end(batch) }
                            throw error
                        }
                        return (contents, try await run.end(batch))
                    }
                } else {
                    // The covers stage links an album to covers carried anywhere in the inputs:
                    // the albums wait in a scratch file until every input is read.
                    let items: Spilled<ImportItem>
                    (items, contents) = try await reader.read(inputs, staging: &staging)
                    batch = StageBatch(
                        library: try await snapshot(), options: options, hub: hub, carriedCovers: contents.covers, isStored: isStored,
                        albumCount: items.count)
                    // The carried covers' map (a key for every cover of a large bundle) is the
                    // batch's now, and let go with it before the commit.
                    contents.covers = [:]
                    survivors = try await ScratchFolder.$current.withValue(scratch) {
                        try await run.run(items, batch: batch, scratch: scratch)
                    }
                }
                contents.warnings += batch.notedWarnings
                (answers, requests) = (batch.rememberedAnswers, batch.countedRequests)
            } catch {
                for report in run.reports where report.received > 0 { hub.publish(.stageFinished(report)) }
                throw error
            }
            for report in run.reports { hub.publish(.stageFinished(report)) }
            var report = ImportReport(stages: run.reports)
            report.requests = requests
            report.summary.warnings = contents.warnings
            report.summary.dryRun = options.dryRun
            report.summary.coversStored = contents.coversRead
            if options.dryRun {
                report.plan = try run.plan(with: survivors, skipped: contents.skipped)
                report.count(report.plan)
            } else {
                report.summary.invalid = contents.skipped.count
            }
            report.summary.recordsSkipped = contents.skipped.count
            report.summary.skipped = run.duplicates
            report.summary.dropped = run.reports.reduce(0) { $0 + $1.dropped } - run.duplicates
            return PreparedImport(
                survivors: survivors, survivorsWithCovers: run.survivorsWithCovers, staging: staging, report: report, lookups: answers)
        } catch {
            await staging?.discard()
            throw error
        }
    }
}

/// What an import's reading and stages made, not yet committed: the albums that passed every
/// stage (in a scratch file), the covers they carried (staged; nil for a dry run, which
/// commits nothing) and the report so far, its per-album counts left to the commit.
struct PreparedImport {
    /// The albums that passed every stage, in input order.
    let survivors: Spilled<ImportItem>
    /// How many of them carry a cover's bytes (none when the inputs carried no covers).
    let survivorsWithCovers: Int
    /// The carried covers, waiting to be kept or dropped.
    var staging: CoverStaging?
    /// Everything but what the commit counts.
    var report: ImportReport
    /// What lookup services answered the stages, remembered with the albums.
    var lookups: [String: LookupAnswer] = [:]
}

/// What an import did: its counts and warnings, each stage's report, and — for a dry run —
/// the plan album by album.
public struct ImportReport: Sendable {
    /// The counts and warnings.
    public var summary = ImportSummary()
    /// Each stage's report, in stage order.
    public var stages: [StageReport]
    /// Every album's fate (dry runs only: a real import of 100 000 albums keeps only counts).
    public var plan = ImportPlan()
    /// Requests the stages sent to each lookup service (`enrich`), for the `Requests:` line.
    public var requests: [String: Int] = [:]

    init(stages: [StageReport]) { self.stages = stages }

    /// Fills the summary's counts from a dry run's plan.
    mutating func count(_ plan: ImportPlan) {
        summary.added = plan.count(.new)
        summary.skipped = plan.count(.duplicate)
        summary.replaced = plan.count(.replace)
        summary.kept = plan.count(.copy)
        summary.invalid = plan.count(.invalid)
    }
}
