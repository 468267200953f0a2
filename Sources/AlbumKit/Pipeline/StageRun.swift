import Foundation

/// One import's pass of albums through its stages: each album goes through every stage in
/// order until one drops or fails it; each stage's counts and time go into its report. The
/// albums come from a scratch file (``run(_:batch:scratch:)``), or from the reading as it goes
/// (``ReadAlbums``).
struct StageRun: ReadAlbums {
    private var stages: [any ImportStage]
    private let dryRun: Bool
    /// Each stage's report, in stage order.
    private(set) var reports: [StageReport]
    /// Albums left out as duplicates.
    private(set) var duplicates = 0
    /// Albums that passed every stage carrying a cover's bytes.
    private(set) var survivorsWithCovers = 0
    /// Every album's fate so far, in input order; nil for an album that passed every stage.
    private var fates: [ImportPlan.Entry?] = []
    /// The albums that passed every stage so far (from ``begin(_:scratch:)`` to ``end(_:)``).
    private var survivors: Spilled<ImportItem>.Writer?
    /// How many albums the stages were given.
    private(set) var count = 0
    /// Whether a stage failed an album in a real import (which stops there, the stages not
    /// ended: the one that failed may be in no state to end).
    private(set) var stageFailed = false

    init(stages: [any ImportStage], dryRun: Bool) {
        self.stages = stages
        self.dryRun = dryRun
        reports = stages.map { StageReport(stage: $0.name) }
    }

    /// Runs `items` through the stages, one at a time, and returns those that passed every
    /// one, in order, in a new scratch file in `scratch` (a large import never holds its albums
    /// at once): ``begin(_:scratch:)``, ``take(_:)`` for each, then ``end(_:)``.
    mutating func run(_ items: Spilled<ImportItem>, batch: StageBatch, scratch: URL) async throws -> Spilled<ImportItem> {
        try await begin(batch, scratch: scratch)
        var reader = items.reader()
        while let item = try reader.next() { try await take(item) }
        return try await end(batch)
    }

    /// Begins the stages; the survivors will go to a new scratch file in `scratch`.
    mutating func begin(_ batch: StageBatch, scratch: URL) async throws {
        for index in stages.indices { try await stages[index].begin(batch) }
        survivors = try Spilled<ImportItem>.Writer(in: scratch)
    }

    /// Runs the next album through the stages (after ``begin(_:scratch:)``). A failure stops a
    /// real import with an error naming the album and the stage; a dry run notes the album as
    /// invalid and goes on.
    mutating func take(_ item: ImportItem) async throws {
        count += 1
        guard let survivor = try await pass(item) else { return }
        if survivor.cover != nil { survivorsWithCovers += 1 }
        try survivors!.append(survivor)
    }

    /// Ends the stages and returns the albums that passed every one, in order. Runs once: the
    /// stages are let go when they have ended.
    mutating func end(_ batch: StageBatch) async throws -> Spilled<ImportItem> {
        for index in stages.indices { try await stages[index].end(batch) }
        // Ended, the stages are let go: what they remember (`dedupe` a key for every album)
        // is not held through the commit.
        stages = []
        return try survivors.take()!.finish()
    }

    /// The plan: each album's fate in input order, survivors by what the commit will do, and
    /// the records skipped as not albums where the inputs held them.
    func plan(with survivors: Spilled<ImportItem>, skipped: [InputReader.SkippedRecord]) throws -> ImportPlan {
        var plan = ImportPlan()
        var next = survivors.reader()
        var skips = skipped[...]
        for (index, fate) in fates.enumerated() {
            while let skip = skips.first, skip.albumsBefore <= index {
                plan.entries.append(skip.entry)
                skips = skips.dropFirst()
            }
            if let fate {
                plan.entries.append(fate)
            } else if let survivor = try next.next() {
                let outcome: ImportPlan.Entry.Outcome = switch survivor.disposition {
                case .add: .new
                case .replace: .replace
                case .copy: .copy
                }
                plan.entries.append(ImportPlan.Entry(outcome, survivor))
            }
        }
        plan.entries += skips.map(\.entry)
        return plan
    }

    private mutating func pass(_ item: ImportItem) async throws -> ImportItem? {
        var current = item
        // One reading of the clock ends a stage's time and starts the next one's.
        var started = ContinuousClock.now
        for index in stages.indices {
            reports[index].received += 1
            let decision: StageDecision
            do {
                decision = try await stages[index].process(current)
            } catch {
                decision = .fail(reason: String(describing: error))
            }
            let ended = ContinuousClock.now
            reports[index].seconds += (ended - started).seconds
            started = ended
            switch decision {
            case .pass(let next):
                reports[index].passed += 1
                current = next
            case .drop(let reason):
                reports[index].dropped += 1
                note(ImportPlan.Entry(.dropped, current, stage: stages[index].name, reason: reason))
                return nil
            case .duplicate(let reason):
                reports[index].dropped += 1
                duplicates += 1
                note(ImportPlan.Entry(.duplicate, current, stage: stages[index].name, reason: reason))
                return nil
            case .fail(let reason):
                reports[index].failed += 1
                guard dryRun else {
                    stageFailed = true
                    throw Self.failure(of: current, in: stages[index].name, reason: reason)
                }
                note(ImportPlan.Entry(.invalid, current, stage: stages[index].name, reason: reason))
                return nil
            }
        }
        if dryRun { fates.append(nil) }
        return current
    }

    private mutating func note(_ fate: ImportPlan.Entry) {
        if dryRun { fates.append(fate) }
    }

    /// The error a stage's failure stops the import with: one sentence naming the album and
    /// the stage.
    static func failure(of item: ImportItem, in stage: String, reason: String) -> AlbumKitError {
        let sentence = reason.contains(item.label) ? reason : "\(item.label): \(reason)"
        return AlbumKitError(stage == "validate" ? .invalidAlbum : .stageFailed, "\(sentence) (stage '\(stage)')")
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
