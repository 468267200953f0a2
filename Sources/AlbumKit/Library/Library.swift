import Foundation

/// The one door to a library (the facade): ordered albums, the current album, undo/redo, and
/// every workflow — import, export, restore, verify, migrate, covers — so a program linking
/// AlbumKit can do whatever the `albumkit` command does, with the same calls.
///
/// Every change runs under the storage's writer lock against the library as it is on disk at
/// that moment (so concurrent processes never lose each other's changes), is recorded in the
/// history as one step with its inverse, is saved with the memento, and is announced on the
/// hub. A reader sees the library before or after a change, never in between; a save that
/// fails leaves memory and disk as they were. No singletons: callers build one and pass it down.
public actor Library {
    /// Where the library lives. Only the core reaches it: callers go through the facade.
    nonisolated let storage: any StorageBackend
    /// Where its events go.
    public nonisolated let hub: NotificationHub
    /// The settings it was opened with (limits, covers, stages, the library folder).
    public nonisolated let configuration: Configuration
    /// The adapters its workflows use (sources, stages, exporters, fetchers, backends).
    public nonisolated let registry: AdapterRegistry
    /// How many steps of history are kept.
    public nonisolated let historyLimit: Int
    /// The library as last loaded or saved by this process.
    public private(set) var snapshot: LibrarySnapshot

    private init(
        storage: any StorageBackend, hub: NotificationHub, configuration: Configuration, registry: AdapterRegistry,
        historyLimit: Int, snapshot: LibrarySnapshot
    ) {
        self.storage = storage
        self.hub = hub
        self.configuration = configuration
        self.registry = registry
        self.historyLimit = historyLimit
        self.snapshot = snapshot
    }

    /// Opens the library `configuration` selects, with the backend `registry` makes for it.
    /// An absent library is an error that says to run `init`.
    public static func open(
        _ configuration: Configuration, registry: AdapterRegistry, hub: NotificationHub,
        historyLimit: Int = LibraryState.defaultHistoryLimit
    ) async throws -> Library {
        do {
            return try await open(registry.makeStorage(for: configuration), hub: hub, configuration: configuration, registry: registry, historyLimit: historyLimit)
        } catch let error as AlbumKitError where error.kind == .libraryState {
            let others = LibraryFolderMarker.backends(in: configuration.libraryDirectory, declarations: configuration.declarations)
                .filter { $0.backend != configuration.storage.backend }
            guard let other = others.first else { throw error }
            throw AlbumKitError(.libraryState, "no \(configuration.storage.backend) library at \(configuration.libraryDirectory.path), but a \(other.backend) library is there (\(other.file)): add --backend \(other.backend), or set storage.backend: \(other.backend) (from \(configuration.describeOrigin(of: "storage.backend")))")
        }
    }

    /// Opens the library in `storage`, restoring its memento (a current album that no
    /// longer exists is dropped). Without a configuration, workflows use the defaults with the
    /// library folder beside a file backend's file (the system's temporary folder otherwise).
    public static func open(
        _ storage: any StorageBackend, hub: NotificationHub, configuration: Configuration? = nil,
        registry: AdapterRegistry = .builtIn, historyLimit: Int = LibraryState.defaultHistoryLimit
    ) async throws -> Library {
        var snapshot = try await storage.load()
        if let current = snapshot.state.current, snapshot.index(of: current) == nil { snapshot.state.current = nil }
        hub.publish(.stateRestored(current: snapshot.state.current, undoSteps: snapshot.state.undo.count, redoSteps: snapshot.state.redo.count))
        return Library(
            storage: storage, hub: hub, configuration: configuration ?? .beside(storage), registry: registry,
            historyLimit: historyLimit, snapshot: snapshot)
    }

    /// Where the library lives, for messages ("/home/me/.local/share/albumkit/library.json").
    public nonisolated var location: String { storage.location }

    /// The albums in order.
    public var albums: [Album] { snapshot.albums }

    /// The current album, if any.
    public var currentAlbum: Album? { snapshot.state.current.flatMap { id in snapshot.albums.first { $0.id == id } } }

    /// How many steps `undo` and `redo` can walk.
    public var historyDepth: (undo: Int, redo: Int) { (snapshot.state.undo.count, snapshot.state.redo.count) }

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
            guard snapshot.index(of: album.id) == nil else {
                throw AlbumKitError(.invalidAlbum, "album '\(album.title)': the id '\(album.id)' is already used")
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
        try await commit(label: label) { snapshot in
            let (edits, result) = try makeEdits(snapshot)
            return (edits, [:], result)
        }
    }

    /// ``commit(label:_:)`` whose edits come with cover references resolved to stored bytes,
    /// recorded in the memento with them (an import of a bundle whose covers were fetched).
    func commit<Result: Sendable>(
        label: String, _ makeEdits: (LibrarySnapshot) throws -> ([LibraryEdit], [String: CoverResolution], Result)
    ) async throws -> Result {
        try await write { snapshot in
            let (edits, resolutions, result) = try makeEdits(snapshot)
            guard !edits.isEmpty else { return (result, nil, []) }
            let change = LibraryChange(label: label, edits: edits)
            try snapshot.apply(change)
            snapshot.state.covers.merge(resolutions) { _, new in new }
            snapshot.state.record(change, limit: historyLimit)
            return (result, .edits(edits), Self.events(for: edits) + Self.coverRequests(for: edits, state: snapshot.state))
        }
    }

    /// Replaces albums and state with `replacement` (restore, init). Not a step of history.
    /// Readers see the old library until the new one is saved.
    func replaceAll(with replacement: LibrarySnapshot) async throws {
        let writer = try await storage.beginWrite()
        do {
            _ = try await writer.load()
            try await writer.save(replacement, change: .replaceAll)
        } catch {
            await writer.finish()
            throw error
        }
        await writer.finish()
        snapshot = replacement
        let state = replacement.state
        hub.publish(.stateRestored(current: state.current, undoSteps: state.undo.count, redoSteps: state.redo.count))
        hub.publish(.saved(location: storage.location, albumCount: replacement.albums.count))
    }

    private func walkHistory(forward: Bool) async throws -> LibraryChange {
        try await write { snapshot in
            guard let change = forward ? snapshot.state.redo.last : snapshot.state.undo.last else {
                throw AlbumKitError(.historyEmpty, forward ? "nothing to redo" : "nothing to undo")
            }
            let applied = forward ? change : change.inverse
            try snapshot.apply(applied)
            if forward {
                snapshot.state.redo.removeLast()
                snapshot.state.undo.append(change)
            } else {
                snapshot.state.undo.removeLast()
                snapshot.state.redo.append(change)
            }
            return (change, .edits(applied.edits), Self.events(for: applied.edits) + Self.coverRequests(for: applied.edits, state: snapshot.state))
        }
    }

    /// Loads under the writer lock, lets `body` change the snapshot in place, saves what it
    /// says changed (nil: nothing), then publishes its events and `library.saved`.
    ///
    /// Nothing suspends between taking the loaded library and the end of `body`, so the change
    /// is made in place (a database backend hands over its cached albums: no copy of 100 000
    /// albums per change) and readers never see a partial change. `body` must leave the
    /// snapshot as it was when it throws. When the save fails, the edits are taken back and the
    /// memento restored, so memory matches the disk again.
    func write<Result>(
        _ body: (inout LibrarySnapshot) throws -> (Result, StoredChange?, [LibraryEvent])
    ) async throws -> Result {
        let writer = try await storage.beginWrite()
        let outcome: (Result, StoredChange?, [LibraryEvent])
        do {
            var loaded = try await writer.load()
            swap(&snapshot, &loaded)
            loaded = LibrarySnapshot()  // our old copy goes, so `snapshot` alone holds the albums
            let stateBefore = snapshot.state
            outcome = try body(&snapshot)
            if let change = outcome.1 {
                do {
                    try await writer.save(snapshot, change: change)
                } catch {
                    if case .edits(let edits) = change { snapshot.revert(edits) }
                    snapshot.state = stateBefore
                    throw error
                }
            }
        } catch {
            await writer.finish()
            throw error
        }
        await writer.finish()
        for event in outcome.2 { hub.publish(event) }
        if outcome.1 != nil { hub.publish(.saved(location: storage.location, albumCount: snapshot.albums.count)) }
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

extension Configuration {
    /// The defaults, with the library folder where `storage` keeps its file (or the system's
    /// temporary folder for a library that is not a file).
    static func beside(_ storage: any StorageBackend) -> Configuration {
        var configuration = Configuration(environment: [:])
        let location = storage.location
        configuration.library = location.hasPrefix("/")
            ? URL(fileURLWithPath: location).deletingLastPathComponent().path
            : FileManager.default.temporaryDirectory.path
        return configuration
    }
}
