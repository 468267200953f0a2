/// One step of history as it is stored: a ``LibraryChange`` that keeps only what the library
/// does not hold at that moment.
///
/// A step on the undo stack is stored with the library on its "after" side: a trailing run of
/// albums the change appended (an import, an add) is in the library, so the step records only
/// where the run lies and its first and last ids (``AppendedRun``), not the albums again. When
/// the step is undone those albums leave the library, so the redo step holds them in full.
/// Stored as `{"label":…,"edits":[…],"appended":{"index":i,"count":n,"first":ID,"last":ID}}`
/// (`appended` left out when there is no run) — the change objects of `state.json`.
public struct HistoryStep: Hashable, Sendable, Codable {
    /// A run of albums appended by the change, held by the library at the step's "after" side.
    public struct AppendedRun: Hashable, Sendable, Codable {
        /// The 0-based position of the run's first album.
        public var index: Int
        /// How many albums the run holds.
        public var count: Int
        /// The ids of its first and last album (a check that the run is where it was).
        public var first: AlbumID
        public var last: AlbumID
    }

    /// What the change did, in words.
    public var label: String
    /// The edits stored in full, in order (before the appended run).
    public var edits: [LibraryEdit]
    /// The appended run, when the change ended with one.
    public var appended: AppendedRun?

    /// A step holding `change` whole.
    public init(_ change: LibraryChange) {
        label = change.label
        edits = change.edits
        appended = nil
    }

    /// A step for the undo stack: `change`'s trailing run of consecutive inserts (at positions
    /// that follow each other) is kept as an ``AppendedRun``.
    public init(compacting change: LibraryChange) {
        var runStart = change.edits.count
        while runStart > 0, case .insert(_, let index) = change.edits[runStart - 1] {
            if runStart < change.edits.count, case .insert(_, let next) = change.edits[runStart], next != index + 1 { break }
            runStart -= 1
        }
        label = change.label
        edits = Array(change.edits[..<runStart])
        guard runStart < change.edits.count,
            case .insert(let first, let index) = change.edits[runStart],
            case .insert(let last, _) = change.edits[change.edits.count - 1]
        else {
            appended = nil
            return
        }
        appended = AppendedRun(index: index, count: change.edits.count - runStart, first: first.id, last: last.id)
    }

    /// A step for the undo stack of `change` and then `run` appended at `index` (its first
    /// album's position): the run is recorded by where it lies, as a compacted step records one.
    init(_ change: LibraryChange, appending run: AlbumRun, at index: Int) {
        label = change.label
        edits = change.edits
        appended = if let first = run.first, let last = run.last {
            AppendedRun(index: index, count: run.count, first: first, last: last)
        } else {
            nil
        }
    }

    /// Whether the step holds every album it names (no appended run to look up).
    public var isWhole: Bool { appended == nil }

    /// The change, its appended run read from `albums` — the library at the step's "after"
    /// side. Throws when the run is not where the step says (the library changed elsewhere).
    public func change<Albums: RandomAccessCollection<Album>>(reading albums: Albums) throws(AlbumKitError) -> LibraryChange
    where Albums.Index == Int {
        guard let appended else { return LibraryChange(label: label, edits: edits) }
        let range = appended.index..<(appended.index + appended.count)
        guard appended.index >= 0, appended.count > 0, range.upperBound <= albums.count,
            albums[albums.startIndex + range.lowerBound].id == appended.first,
            albums[albums.startIndex + range.upperBound - 1].id == appended.last
        else {
            throw AlbumKitError(.libraryState, "history step '\(label)': its \(appended.count) albums are not at positions \(range.lowerBound + 1)–\(range.upperBound) any more; the library was changed elsewhere")
        }
        let run = range.map { LibraryEdit.insert(albums[albums.startIndex + $0], at: $0) }
        return LibraryChange(label: label, edits: edits + run)
    }

    /// The positions (0-based) of the appended run, to read before ``change(reading:)``.
    public var appendedRange: Range<Int>? { appended.map { $0.index..<($0.index + $0.count) } }
}

/// A step of history as the memento lists it: its id (where the step itself is stored) and
/// its label (what `undo` would say), so that neither needs the step read.
public struct HistoryRef: Hashable, Sendable, Codable {
    /// Where the step is stored (a row id, a journal file name): unique within a library.
    public var id: Int64
    /// What the step did, in words.
    public var label: String

    /// A reference to step `id` labelled `label`.
    public init(id: Int64, label: String) {
        self.id = id
        self.label = label
    }
}
