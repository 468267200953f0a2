/// What one change does, planned against the library under the writer lock before anything
/// is applied: its edits and how the history moves (a new step, or a step walked), the cover
/// references it resolves, the current album it selects. ``finish()`` turns it into the new
/// memento and the ``StoredChange`` a backend saves.
struct ChangePlan {
    /// How the history moves.
    private enum History {
        case none
        case record(label: String, change: LibraryChange)
        /// A new step whose change ends with `run` appended at `index` (an import).
        case recordAppending(label: String, change: LibraryChange, run: AlbumRun, index: Int)
        case walk(ref: HistoryRef, change: LibraryChange, forward: Bool)
    }

    /// The memento under the lock, before the change.
    let state: LibraryState
    /// The session the change is made in (for reading history steps).
    let writer: any StorageWriter
    private let historyLimit: Int
    private var history = History.none
    /// Cover references resolved by the change, merged into the memento.
    var covers: [String: CoverResolution] = [:]
    /// Lookup answers given by the change: merged into the memento, and handed to the save
    /// (``StoredChange/lookups``) for a backend that keeps them apart.
    var lookups: [String: LookupAnswer] = [:]
    /// The memento's whole reference → cover map, when the change replaces it (prune).
    private var replacedCovers: [String: CoverResolution]?

    /// Replaces the memento's reference → cover map with `covers`.
    mutating func replaceCovers(with covers: [String: CoverResolution]) { replacedCovers = covers }
    /// The album to make current (`.some(nil)`: none), when the change selects one.
    var current: AlbumID??
    /// The memento after the change (after ``finish()``).
    private(set) var newState: LibraryState

    init(state: LibraryState, writer: any StorageWriter, historyLimit: Int) {
        self.state = state
        self.writer = writer
        self.historyLimit = historyLimit
        self.newState = state
    }

    /// Records `edits` as one new step of history labelled `label`.
    mutating func record(_ label: String, _ edits: [LibraryEdit]) {
        history = edits.isEmpty ? .none : .record(label: label, change: LibraryChange(label: label, edits: edits))
    }

    /// Records `edits` and then `run` appended at `index` (the library's count after the edits)
    /// as one new step of history labelled `label`.
    mutating func record(_ label: String, _ edits: [LibraryEdit], appending run: AlbumRun, at index: Int) {
        guard run.count > 0 else { return record(label, edits) }
        history = .recordAppending(label: label, change: LibraryChange(label: label, edits: edits), run: run, index: index)
    }

    /// Walks the step `ref` (whose change is `change`): back for undo, again for redo.
    mutating func walk(_ ref: HistoryRef, change: LibraryChange, forward: Bool) {
        history = .walk(ref: ref, change: change, forward: forward)
    }

    /// The edits the change applies, in order.
    var appliedEdits: [LibraryEdit] {
        switch history {
        case .none: []
        case .record(_, let change), .recordAppending(_, let change, _, _): change.edits
        case .walk(_, let change, let forward): forward ? change.edits : change.inverse.edits
        }
    }

    /// The run the change appends after its edits, and the position (0-based) of its first album.
    var appendedRun: (run: AlbumRun, index: Int)? {
        if case .recordAppending(_, _, let run, let index) = history { (run, index) } else { nil }
    }

    /// The new memento and what to save; nil when nothing changes.
    mutating func finish() -> StoredChange? {
        var state = self.state
        if let replacedCovers { state.covers = replacedCovers }
        state.covers.merge(covers) { _, new in new }
        state.lookups.merge(lookups) { _, new in new }
        if let current { state.current = current }
        var stored: StoredChange
        switch history {
        case .none:
            stored = .stateOnly
        case .record(let label, let change):
            let (id, dropped) = state.record(label, limit: historyLimit)
            stored = StoredChange(albums: .edits(change.edits), addedSteps: [id: HistoryStep(compacting: change)], droppedSteps: dropped)
        case .recordAppending(let label, let change, let run, let index):
            let (id, dropped) = state.record(label, limit: historyLimit)
            let step = HistoryStep(change, appending: run, at: index)
            stored = StoredChange(albums: .appending(run, after: change.edits), addedSteps: [id: step], droppedSteps: dropped)
        case .walk(let ref, let change, let forward):
            let id = state.newStepID()
            if forward {
                state.redo.removeLast()
                state.undo.append(HistoryRef(id: id, label: ref.label))
                stored = StoredChange(albums: .edits(change.edits), addedSteps: [id: HistoryStep(compacting: change)], droppedSteps: [ref.id])
            } else {
                // Undone, the change's appended albums leave the library: its redo step holds them.
                state.undo.removeLast()
                state.redo.append(HistoryRef(id: id, label: ref.label))
                stored = StoredChange(albums: .edits(change.inverse.edits), addedSteps: [id: HistoryStep(change)], droppedSteps: [ref.id])
            }
        }
        stored.lookups = lookups
        newState = state
        if case .none = history, state == self.state { return nil }
        return stored
    }
}

/// Which album is current after a change that removes albums (SPEC 5): when the current album
/// is removed, the album now at its position, or the last one if it was last; none when the
/// library is empty.
enum CurrentAlbum {
    /// The current album after `edits`, read through `view` (the library before them).
    static func after(_ edits: [LibraryEdit], current: AlbumID?, in view: any AlbumsView) async throws -> AlbumID? {
        guard let current, edits.contains(where: { if case .remove(let album, _) = $0 { album.id == current } else { false } }) else {
            return current
        }
        let removes = edits.compactMap { edit -> Int? in if case .remove(_, let index) = edit { index } else { nil } }
        let onlyDescendingRemoves = edits.allSatisfy { if case .insert = $0 { false } else if case .move = $0 { false } else { true } }
            && zip(removes, removes.dropFirst()).allSatisfy { $0 > $1 }
        guard onlyDescendingRemoves, let index = try await view.index(of: current) else {
            // Any other shape: follow the edits over the whole library.
            var whole = LibrarySnapshot(albums: try await view.albums(in: 0..<(try await view.count())), state: LibraryState(current: current))
            try whole.apply(LibraryChange(label: "", edits: edits))
            return whole.state.current
        }
        let removed = Set(removes)
        let count = try await view.count()
        let after = (index + 1..<count).first { !removed.contains($0) }
        guard let chosen = after ?? (0..<index).last(where: { !removed.contains($0) }) else { return nil }
        return try await view.album(at: chosen).id
    }
}
