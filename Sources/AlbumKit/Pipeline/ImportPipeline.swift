import Foundation

/// `import`: source → stages in `import.stages` order → one commit → events.
///
/// Reads every input through the source that recognises it (covers checked against their
/// SHA-256 names and written straight into the library's cover store; see ``CoverStaging``) — the source reading ahead on one core while the covers are hashed and
/// written on another (``ReadAhead``) — runs each album through the stages,
/// then — only when every stage has seen every album — keeps the covers of the albums that
/// arrive (durably; the others go) and merges them into the library as one step of history (one `undo` takes a whole
/// import back, whatever its stages changed). Publishes `import.started`, `import.progress`,
/// `pipeline.stageFinished` (one per stage, in order), `import.albumImported`,
/// `import.finished` or `import.failed`. A failure anywhere leaves the library, covers
/// included, as it was. A dry run writes nothing and returns the plan album by album.
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

    /// Imports `inputs` into `library`.
    public func run(_ inputs: [URL], into library: Library) async throws -> ImportReport {
        let stagePlan = try StagePlan(configuration: configuration, registry: registry)
        let hub = library.hub
        let names = inputs.map(\.path).joined(separator: ", ")
        hub.publish(.importStarted(inputs: inputs.map(\.path)))
        var staging = options.dryRun ? nil : CoverStaging(parent: configuration.libraryDirectory, store: library.storage.covers)
        do {
            let reader = InputReader(registry: registry, configuration: configuration, hub: hub, forcedSource: options.format, strict: options.strict)
            var contents = try await reader.read(inputs, staging: &staging)
            var run = StageRun(stages: try stagePlan.makeStages(configuration), dryRun: options.dryRun)
            let survivors: Spilled<ImportItem>
            do {
                survivors = try await runStages(&contents, &run, library: library)
            } catch {
                for report in run.reports where report.received > 0 { hub.publish(.stageFinished(report)) }
                throw error
            }
            for report in run.reports { hub.publish(.stageFinished(report)) }
            var report = ImportReport(stages: run.reports)
            report.summary.warnings = contents.warnings
            report.summary.dryRun = options.dryRun
            report.summary.coversStored = contents.coversRead
            if options.dryRun {
                report.plan = try run.plan(with: survivors, skipped: contents.skipped)
                report.count(report.plan)
            } else if staging != nil {
                try await commit(survivors, staging: &staging!, into: library, report: &report)
                report.summary.invalid = contents.skipped.count
            }
            report.summary.recordsSkipped = contents.skipped.count
            report.summary.skipped = run.duplicates
            report.summary.dropped = run.reports.reduce(0) { $0 + $1.dropped } - run.duplicates
            hub.publish(.importFinished(report.summary))
            return report
        } catch {
            await staging?.discard()
            hub.publish(.importFailed(input: names, reason: String(describing: error)))
            throw error
        }
    }

    /// Runs the albums `contents` holds through the stages, one at a time from its scratch
    /// file; returns those that passed every stage, in another, and adds the stages' warnings to
    /// the input's. The carried covers are moved out, into the stages' batch, so that their map
    /// (a key for every cover of a large bundle) is let go before the commit.
    private func runStages(_ contents: inout InputReader.Contents, _ run: inout StageRun, library: Library) async throws -> Spilled<ImportItem> {
        let store = library.storage.covers
        let carried = contents.covers
        contents.covers = [:]
        let batch = StageBatch(
            library: try await library.snapshot(), options: options, hub: library.hub, carriedCovers: carried,
            isStored: { (try? await store.contains($0)) == true }, albumCount: contents.items.count,
            scratchFolder: configuration.libraryDirectory)
        let survivors = try await run.run(contents.items, batch: batch, scratch: configuration.libraryDirectory)
        contents.warnings += batch.notedWarnings
        return survivors
    }

    /// Stores the covers the survivors carry, then merges them, read back one at a time, as one
    /// step of history; takes the covers back when the merge fails.
    private func commit(_ survivors: Spilled<ImportItem>, staging: inout CoverStaging, into library: Library, report: inout ImportReport) async throws {
        var used: [CoverKey] = []
        var reading = survivors.reader()
        while let item = try reading.next() {
            if let key = item.cover?.key { used.append(key) }
        }
        // Sorted and halved: a set of 100 000 keys took 14.7 MB, the array takes 5.6.
        used.sortWithoutScratch()
        let added = try await staging.commit { [used] in used.sortedContains($0) }
        used = []
        let commit: ImportCommit
        do {
            var items = survivors.reader()
            commit = try await library.commitImport(expecting: survivors.count) { try items.next() }
        } catch {
            await staging.rollback(added)
            throw error
        }
        try commit.forEach { album, outcome in
            report.summary.count(outcome)
            library.hub.publish(.albumImported(album, outcome: outcome))
        }
    }
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
