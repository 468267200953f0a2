import Foundation

/// `import`: reads every input through the source that recognises it, validates each
/// album, checks bundle covers against their SHA-256 names and stages them, then — only when
/// every input has been read — stores the covers and merges the albums into the library as
/// one step of history (one `undo` takes a whole import back). Publishes
/// `import.started/progress/albumImported/finished/failed` on the library's hub.
/// A failure anywhere leaves the library, covers included, as it was.
public struct ImportPipeline: Sendable {
    /// Where sources come from.
    public var registry: AdapterRegistry
    /// Reading limits (`limits.*`).
    public var limits: Limits
    /// What to do with duplicates.
    public var policy: DuplicatePolicy
    /// Report only; write nothing.
    public var dryRun: Bool
    /// The folder covers wait in until the import commits (a new subfolder is made and
    /// removed inside it): the library folder, so nothing is written outside the library.
    public var stagingParent: URL
    /// Folders outside the inputs that sources may read files from (`covers.fileRoots`):
    /// art beside an iTunes library's tracks, a beets album's `artpath`.
    public var fileRoots = FileRoots([])

    /// An import; `stagingParent` defaults to the system's temporary folder.
    public init(
        registry: AdapterRegistry, limits: Limits, policy: DuplicatePolicy = .skip, dryRun: Bool = false,
        stagingParent: URL = FileManager.default.temporaryDirectory
    ) {
        self.registry = registry
        self.limits = limits
        self.policy = policy
        self.dryRun = dryRun
        self.stagingParent = stagingParent
    }

    /// Imports `inputs` into `library`.
    public func run(_ inputs: [URL], into library: Library) async throws -> ImportSummary {
        let hub = library.hub
        hub.publish(.importStarted(inputs: inputs.map(\.path)))
        var summary = ImportSummary()
        summary.dryRun = dryRun
        var staging = dryRun ? nil : CoverStaging(parent: stagingParent, store: library.storage.covers)
        defer { staging?.discard() }
        let reader = InputReader(registry: registry, limits: limits, hub: hub, store: library.storage.covers, fileRoots: fileRoots)
        var incoming: [IncomingAlbum] = []
        for input in inputs {
            do {
                let contents = try await reader.read(input, staging: &staging)
                incoming += contents.albums
                summary.warnings += contents.warnings
                summary.coversStored += contents.coversRead
            } catch {
                hub.publish(.importFailed(input: input.path, reason: String(describing: error)))
                throw error
            }
        }
        let planner = ImportPlanner(policy: policy)
        let outcomes: [(Album, ImportOutcome)]
        if let staging {
            let label = "import \(incoming.count) album\(incoming.count == 1 ? "" : "s")"
            let added = try await staging.commit()
            do {
                outcomes = try await library.commit(label: label) { snapshot in
                    let plan = planner.plan(incoming, into: snapshot)
                    return (plan.edits, plan.outcomes.map { AlbumOutcome(album: $0.0, outcome: $0.1) })
                }.map { ($0.album, $0.outcome) }
            } catch {
                await staging.rollback(added)
                hub.publish(.importFailed(input: inputs.map(\.path).joined(separator: ", "), reason: String(describing: error)))
                throw error
            }
        } else {
            outcomes = planner.plan(incoming, into: await library.snapshot).outcomes
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
}
