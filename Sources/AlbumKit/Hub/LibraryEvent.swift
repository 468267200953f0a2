/// Everything the parts tell each other (SPEC 6). Positions are 1-based, as users see them.
public enum LibraryEvent: Sendable, Hashable {
    /// An album is in the library at `position` that was not: the library's own account of a
    /// change, whatever made it (`add`, an `undo` of a remove, an import). What mirrors the
    /// list (the served page) follows these and its siblings `albumRemoved`, `albumUpdated`
    /// and `albumMoved`. An import publishes both this and ``albumImported(_:outcome:)``.
    case albumAdded(Album, position: Int)
    case albumRemoved(Album, position: Int)
    case albumUpdated(before: Album, after: Album)
    case albumMoved(AlbumID, from: Int, to: Int)
    case saved(location: String, albumCount: Int)
    case stateRestored(current: AlbumID?, undoSteps: Int, redoSteps: Int)
    case importStarted(inputs: [String])
    /// How far an import has read `input`: albums read so far, bytes of it read, of how many.
    case importProgress(input: String, albums: Int, bytesRead: Int64, totalBytes: Int64?)
    /// What an import did with one incoming album, its ``ImportOutcome`` included: the
    /// workflow's account, which also names the duplicates it skipped (no library event) and
    /// replaced (an `albumUpdated`). Published after the library's events for the import, once
    /// it is saved; an album it added is announced by both (a subscriber needs only the one
    /// that tells what it follows: the list, or the import).
    case albumImported(Album, outcome: ImportOutcome)
    case importFinished(ImportSummary)
    case importFailed(input: String, reason: String)
    case exportStarted(path: String, albums: Int)
    case exportProgress(path: String, albums: Int, totalAlbums: Int, covers: Int, bytesWritten: Int64)
    case exportFinished(path: String, albums: Int, bytesWritten: Int64)
    case coverRequested(AlbumID, reference: String)
    case coverFetched(AlbumID, reference: String, key: CoverKey, bytes: Int)
    case coverCached(AlbumID, reference: String, key: CoverKey)
    case coverFailed(AlbumID, reference: String, reason: String)
    case storageSwitched(from: String, to: String)
    /// Another process changed the library; readers should read it again.
    case changedElsewhere(location: String, albumCount: Int)
    /// A stage of the import pipeline has seen every album: how many came in and went out,
    /// were dropped or failed, and its time.
    case stageFinished(StageReport)
    case restoreStarted(input: String)
    /// How far a restore has read `input`, as ``importProgress(input:albums:bytesRead:totalBytes:)`` tells an import's.
    case restoreProgress(input: String, albums: Int, bytesRead: Int64, totalBytes: Int64?)
    case restoreFinished(input: String, albums: Int, backup: String?)
    case restoreFailed(input: String, reason: String)
    case migrateStarted(from: String, to: String, albums: Int)
    case migrateProgress(to: String, coversCopied: Int, totalCovers: Int, bytesCopied: Int64)
    case migrateFinished(from: String, to: String, albums: Int, covers: Int)
    case migrateFailed(from: String, to: String, reason: String)
    /// A plugin (a child process, say) failed; the command fails with it.
    case pluginFailed(plugin: String, reason: String)
    /// `enrich` began looking `albums` albums up.
    case enrichStarted(albums: Int)
    /// `enrich` looked one album up; `fields` are the fields it filled (none: nothing to fill).
    case albumEnriched(AlbumID, fields: [String])
    /// `enrich` ended: `albums` looked up, `enriched` of them changed.
    case enrichFinished(albums: Int, enriched: Int)

    /// The SPEC name, such as `library.albumAdded`.
    public var name: String {
        switch self {
        case .albumAdded: "library.albumAdded"
        case .albumRemoved: "library.albumRemoved"
        case .albumUpdated: "library.albumUpdated"
        case .albumMoved: "library.albumMoved"
        case .saved: "library.saved"
        case .stateRestored: "library.stateRestored"
        case .importStarted: "import.started"
        case .importProgress: "import.progress"
        case .albumImported: "import.albumImported"
        case .importFinished: "import.finished"
        case .importFailed: "import.failed"
        case .exportStarted: "export.started"
        case .exportProgress: "export.progress"
        case .exportFinished: "export.finished"
        case .coverRequested: "cover.requested"
        case .coverFetched: "cover.fetched"
        case .coverCached: "cover.cached"
        case .coverFailed: "cover.failed"
        case .storageSwitched: "storage.switched"
        case .changedElsewhere: "library.changedElsewhere"
        case .stageFinished: "pipeline.stageFinished"
        case .restoreStarted: "restore.started"
        case .restoreProgress: "restore.progress"
        case .restoreFinished: "restore.finished"
        case .restoreFailed: "restore.failed"
        case .migrateStarted: "migrate.started"
        case .migrateProgress: "migrate.progress"
        case .migrateFinished: "migrate.finished"
        case .migrateFailed: "migrate.failed"
        case .pluginFailed: "plugin.failed"
        case .enrichStarted: "enrich.started"
        case .albumEnriched: "enrich.albumEnriched"
        case .enrichFinished: "enrich.finished"
        }
    }
}

/// What `import` did with one incoming album.
public enum ImportOutcome: String, Sendable, Hashable, Codable {
    /// New to the library.
    case added
    /// A duplicate, left out (`--on-duplicate skip`).
    case skipped
    /// A duplicate whose fields replaced the stored album's (`replace`).
    case replaced
    /// A duplicate added again under a new id (`keep`).
    case kept
}

/// What one stage of the import pipeline did with a batch (`pipeline.stageFinished`).
public struct StageReport: Sendable, Hashable, Codable {
    /// The stage's registered name.
    public var stage: String
    /// Albums it was given.
    public var received = 0
    /// Albums it passed on.
    public var passed = 0
    /// Albums it dropped (duplicates skipped included).
    public var dropped = 0
    /// Albums it failed (at most one in a real import, which then stops).
    public var failed = 0
    /// Time spent in the stage.
    public var seconds = 0.0

    /// An empty report for `stage`.
    public init(stage: String) { self.stage = stage }
}

/// The counts an import ends with.
public struct ImportSummary: Sendable, Hashable, Codable {
    public var added = 0
    public var skipped = 0
    public var replaced = 0
    public var kept = 0
    /// Albums a stage dropped (not duplicates).
    public var dropped = 0
    /// Albums found invalid: records of other tools' files that could not be albums, skipped,
    /// and — in a dry run — albums a stage failed (a real import stops at the first).
    public var invalid = 0
    /// Of ``invalid``, the records of other tools' files skipped as not albums, each named in
    /// ``warnings`` (SPEC 9).
    public var recordsSkipped = 0
    public var coversStored = 0
    public var warnings: [String] = []
    public var dryRun = false

    public init() {}

    /// Counts one album's outcome.
    public mutating func count(_ outcome: ImportOutcome) {
        switch outcome {
        case .added: added += 1
        case .skipped: skipped += 1
        case .replaced: replaced += 1
        case .kept: kept += 1
        }
    }
}
