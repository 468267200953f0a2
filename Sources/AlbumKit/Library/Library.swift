/// The one door to a library (the facade): ordered albums, the current album, undo/redo.
///
/// Every change runs under the storage's writer lock against the library as it is on disk at
/// that moment (so concurrent processes never lose each other's changes), is recorded in the
/// history as one step with its inverse, is saved with the memento, and is announced on the
/// hub. No singletons: callers build one and pass it down.
public actor Library {
    /// Where the library lives.
    public nonisolated let storage: any StorageBackend
    /// Where its events go.
    public nonisolated let hub: NotificationHub
    /// How many steps of history are kept.
    public nonisolated let historyLimit: Int
    /// The library as last loaded or saved by this process.
    public private(set) var snapshot: LibrarySnapshot

    private init(storage: any StorageBackend, hub: NotificationHub, historyLimit: Int, snapshot: LibrarySnapshot) {
        self.storage = storage
        self.hub = hub
        self.historyLimit = historyLimit
        self.snapshot = snapshot
    }

    /// Opens the library in `storage`, restoring its memento (a current album that no
    /// longer exists is dropped).
    public static func open(
        _ storage: any StorageBackend, hub: NotificationHub, historyLimit: Int = LibraryState.defaultHistoryLimit
    ) async throws -> Library {
        var snapshot = try await storage.load()
        if let current = snapshot.state.current, snapshot.index(of: current) == nil { snapshot.state.current = nil }
        hub.publish(.stateRestored(current: snapshot.state.current, undoSteps: snapshot.state.undo.count, redoSteps: snapshot.state.redo.count))
        return Library(storage: storage, hub: hub, historyLimit: historyLimit, snapshot: snapshot)
    }

    /// The albums in order.
    public var albums: [Album] { snapshot.albums }

    /// The current album, if any.
    public var currentAlbum: Album? { snapshot.state.current.flatMap { id in snapshot.albums.first { $0.id == id } } }

    /// The album `reference` names, with its 1-based position.
    public func album(_ reference: AlbumReference) throws -> (album: Album, position: Int) {
        let index = try reference.index(in: snapshot)
        return (snapshot.albums[index], index + 1)
    }

    /// Adds an album at `position` (1-based; default: at the end) and returns it with its id.
    @discardableResult
    public func add(_ record: AlbumRecord, at position: Int? = nil) async throws -> Album {
        let album = try record.validated(newID: .generate(), label: "'\(record.title)'")
        try await commit(label: "add '\(album.title)'") { snapshot in
            let index = (position ?? snapshot.albums.count + 1) - 1
            guard (0...snapshot.albums.count).contains(index) else {
                throw AlbumKitError(.noSuchAlbum, "cannot add at position \(index + 1): positions run from 1 to \(snapshot.albums.count + 1)")
            }
            return ([.insert(album, at: index)], ())
        }
        return album
    }

    /// Changes the fields `patch` names; returns the album as it is now.
    @discardableResult
    public func update(_ reference: AlbumReference, _ patch: AlbumPatch) async throws -> Album {
        try await commit(label: "update \(reference)") { snapshot in
            let before = snapshot.albums[try reference.index(in: snapshot)]
            let after = try patch.applied(to: before)
            return (after == before ? [] : [.update(before: before, after: after)], after)
        }
    }

    /// Removes the albums `references` name (resolved all at once, as listed before the
    /// change), as one step of history. Returns them in library order.
    @discardableResult
    public func remove(_ references: [AlbumReference]) async throws -> [Album] {
        try await commit(label: "remove") { snapshot in
            var indexes = Set<Int>()
            for reference in references { indexes.insert(try reference.index(in: snapshot)) }
            let descending = indexes.sorted(by: >)
            return (descending.map { .remove(snapshot.albums[$0], at: $0) }, descending.reversed().map { snapshot.albums[$0] })
        }
    }

    /// Moves an album to `position` (1-based).
    public func move(_ reference: AlbumReference, to position: Int) async throws {
        try await commit(label: "move \(reference) to \(position)") { snapshot in
            let from = try reference.index(in: snapshot)
            guard position >= 1, position <= snapshot.albums.count else {
                throw AlbumKitError.noSuchAlbum("position \(position)", count: snapshot.albums.count)
            }
            return (from == position - 1 ? [] : [.move(snapshot.albums[from].id, from: from, to: position - 1)], ())
        }
    }

    /// Makes the album `reference` names current. Not a step of history.
    @discardableResult
    public func select(_ reference: AlbumReference) async throws -> Album {
        try await write { snapshot in
            let album = snapshot.albums[try reference.index(in: snapshot)]
            snapshot.state.current = album.id
            return (album, .stateOnly, [])
        }
    }

    /// Takes back the last change; returns it. Throws when there is nothing to undo.
    @discardableResult
    public func undo() async throws -> LibraryChange {
        try await walkHistory(forward: false)
    }

    /// Applies again the last undone change; returns it. Throws when there is nothing to redo.
    @discardableResult
    public func redo() async throws -> LibraryChange {
        try await walkHistory(forward: true)
    }

    /// Applies the edits `makeEdits` derives from the library as it is under the lock, as
    /// one step of history labelled `label`; returns what `makeEdits` returned beside them.
    /// No edits: nothing is saved or recorded. The door import and other pipelines use.
    public func commit<Result: Sendable>(
        label: String, _ makeEdits: (LibrarySnapshot) throws -> ([LibraryEdit], Result)
    ) async throws -> Result {
        try await write { snapshot in
            let (edits, result) = try makeEdits(snapshot)
            guard !edits.isEmpty else { return (result, nil, []) }
            let change = LibraryChange(label: label, edits: edits)
            try snapshot.apply(change)
            snapshot.state.record(change, limit: historyLimit)
            return (result, .edits(edits), Self.events(for: edits) + Self.coverRequests(for: edits, state: snapshot.state))
        }
    }

    /// Replaces albums and state with `replacement` (restore). Not a step of history.
    public func replaceAll(with replacement: LibrarySnapshot) async throws {
        try await write { snapshot in
            snapshot = replacement
            let state = replacement.state
            return ((), .replaceAll, [.stateRestored(current: state.current, undoSteps: state.undo.count, redoSteps: state.redo.count)])
        }
    }

    private func walkHistory(forward: Bool) async throws -> LibraryChange {
        try await write { snapshot in
            guard let change = forward ? snapshot.state.redo.popLast() : snapshot.state.undo.popLast() else {
                throw AlbumKitError(.historyEmpty, forward ? "nothing to redo" : "nothing to undo")
            }
            let applied = forward ? change : change.inverse
            try snapshot.apply(applied)
            if forward { snapshot.state.undo.append(change) } else { snapshot.state.redo.append(change) }
            return (change, .edits(applied.edits), Self.events(for: applied.edits) + Self.coverRequests(for: applied.edits, state: snapshot.state))
        }
    }

    /// Loads under the writer lock, lets `body` change the snapshot, saves what it says
    /// changed (nil: nothing), then publishes its events and `library.saved`.
    func write<Result>(
        _ body: (inout LibrarySnapshot) throws -> (Result, StoredChange?, [LibraryEvent])
    ) async throws -> Result {
        let writer = try await storage.beginWrite()
        let outcome: (Result, StoredChange?, [LibraryEvent])
        var fresh: LibrarySnapshot
        do {
            fresh = try await writer.load()
            // A backend may hand back the very album array `snapshot` holds (a cache): drop
            // ours so the change is made in place instead of copying the whole library. (The
            // memento stays readable; it is small and only what changes of it is copied.)
            snapshot.albums = []
            outcome = try body(&fresh)
            if let change = outcome.1 { try await writer.save(fresh, change: change) }
        } catch {
            await writer.finish()
            snapshot = (try? await storage.load()) ?? snapshot
            throw error
        }
        await writer.finish()
        snapshot = fresh
        for event in outcome.2 { hub.publish(event) }
        if outcome.1 != nil { hub.publish(.saved(location: storage.location, albumCount: fresh.albums.count)) }
        return outcome.0
    }

    private static func events(for edits: [LibraryEdit]) -> [LibraryEvent] {
        edits.map { edit in
            switch edit {
            case .insert(let album, let index): .albumAdded(album, position: index + 1)
            case .remove(let album, let index): .albumRemoved(album, position: index + 1)
            case .update(let before, let after): .albumUpdated(before: before, after: after)
            case .move(let id, let from, let to): .albumMoved(id, from: from + 1, to: to + 1)
            }
        }
    }
}
