import Foundation

/// The one door to a library (the facade): ordered albums, the current album, undo/redo, and
/// every workflow — import, export, restore, verify, migrate, covers — so a program linking
/// AlbumKit can do whatever the `albumkit` command does, with the same calls.
///
/// Every change runs under the storage's writer lock against the library as it is at that
/// moment (so concurrent processes never lose each other's changes), is recorded in the
/// history as one step with its inverse, is saved with the memento, and is announced on the
/// hub. A reader sees the library before or after a change, never in between; a save that
/// fails leaves memory and disk as they were.
///
/// A backend that loads whole (a property list) is held in memory and changed in place; one
/// that reads by points (a database, a JSON file) is asked only what a command touches, so
/// `show 5` or `add` on 100 000 albums reads a few rows. History steps are read only by `undo` and `redo`.
/// No singletons: callers build one and pass it down.
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
    /// The memento as last loaded or saved by this process. A library that reads by points
    /// may leave the lookup answers out of it: ask ``lookupAnswers(_:)``.
    public internal(set) var memento: LibraryState
    /// Every album, when held in memory (for a backend that loads whole, unless the last change
    /// appended a run it never held: then readers load the library; never kept for one that
    /// reads by points, which is asked each time).
    var held: [Album]?
    /// What the last few queries the store narrowed down matched (``searchedMatches(_:_:)``).
    var searches = SearchedMatches.Cache()
    /// The searches running now (``searchedMatches(_:_:)``).
    var searching: [SearchedMatches.Running: Task<SearchedMatches, any Error>] = [:]
    /// The folder a writer sweeps for what killed processes left (``beginWrite()``): the
    /// library folder, unless this library was opened without a configuration and is not a
    /// file, when that folder would be the system's temporary one.
    private let leftoversFolder: URL?

    private init(
        storage: any StorageBackend, hub: NotificationHub, configuration: Configuration?, registry: AdapterRegistry,
        historyLimit: Int, memento: LibraryState, held: [Album]?
    ) {
        self.storage = storage
        self.hub = hub
        self.configuration = configuration ?? .beside(storage)
        leftoversFolder = configuration != nil || storage.location.hasPrefix("/") ? self.configuration.libraryDirectory : nil
        self.registry = registry
        self.historyLimit = historyLimit
        self.memento = memento
        self.held = held
    }

    /// Opens the library `configuration` selects, with the backend `registry` makes for it.
    /// An absent library is an error that says to run `init` (or names the backend whose
    /// library is there instead).
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
        var memento: LibraryState
        var held: [Album]?
        if let reads = storage.pointReads {
            memento = try await reads.state()
            if let current = memento.current, try await !reads.contains(current) { memento.current = nil }
        } else {
            let snapshot = try await storage.load()
            memento = snapshot.state
            held = snapshot.albums
            if let current = memento.current, snapshot.index(of: current) == nil { memento.current = nil }
        }
        hub.publish(.stateRestored(current: memento.current, undoSteps: memento.undo.count, redoSteps: memento.redo.count))
        return Library(
            storage: storage, hub: hub, configuration: configuration, registry: registry,
            historyLimit: historyLimit, memento: memento, held: held)
    }

    /// Where the library lives, for messages ("/home/me/.local/share/albumkit/library.json").
    public nonisolated var location: String { storage.location }

    // MARK: - Reads

    /// The albums in order.
    public func albums() async throws -> [Album] {
        if let held { return held }
        let snapshot = try await storage.load()
        memento = snapshot.state
        return snapshot.albums
    }

    /// The albums at `range` of positions (0-based; clamped to the library).
    public func albums(in range: Range<Int>) async throws -> [Album] { try await view().albums(in: range) }

    /// How many albums the library holds.
    public func count() async throws -> Int { try await view().count() }

    /// A number every save of the library changes, by any process, when its backend keeps one
    /// (``LibraryPointReads/revision()``): what was read between two reads of the same revision
    /// is the library at that revision. Nil for a library held in memory, and for a backend
    /// that keeps none.
    public nonisolated func revision() async throws -> Int64? { try await storage.pointReads?.revision() }

    /// The whole library: albums and memento.
    public func snapshot() async throws -> LibrarySnapshot {
        let albums = try await albums()
        return LibrarySnapshot(albums: albums, state: memento)
    }

    /// The current album, if any.
    public func currentAlbum() async throws -> Album? {
        guard let current = memento.current else { return nil }
        return try await view().album(withID: current)?.album
    }

    /// What the lookup services answered (the lookup cache, SPEC 11) under `keys`
    /// (``LookupAnswer/key(fetcher:identity:)``): read from the store by key when it reads by
    /// points, so a command asking about a few albums does not read every answer; keys with no
    /// answer are left out.
    public func lookupAnswers(_ keys: [String]) async throws -> [String: LookupAnswer] {
        if let reads = storage.pointReads { return try await reads.lookupAnswers(keys) }
        return Dictionary(uniqueKeysWithValues: Set(keys).compactMap { key in memento.lookups[key].map { (key, $0) } })
    }

    /// How many steps `undo` and `redo` can walk.
    public var historyDepth: (undo: Int, redo: Int) { (memento.undo.count, memento.redo.count) }

    /// The album `reference` names, with its 1-based position.
    public func album(_ reference: AlbumReference) async throws -> (album: Album, position: Int) {
        let (index, album) = try await view().resolve(try await pinned(reference))
        return (album, index + 1)
    }

    /// The first album, with its 1-based position, that `album` would duplicate by import's
    /// rule (the same artist, title and year, ignoring case: ``Album/duplicateKey``), if any.
    public func duplicate(of album: Album) async throws -> (album: Album, position: Int)? {
        guard let index = try await view().firstIndex(ofDuplicateKey: album.duplicateKey) else { return nil }
        return (try await view().album(at: index), index + 1)
    }

    /// The albums as readers see them now.
    func view() async throws -> any AlbumsView {
        if let held { return AlbumsInMemory(albums: held) }
        if let reads = storage.pointReads { return AlbumsByPointReads(reads: reads) }
        return AlbumsInMemory(albums: try await storage.load().albums)
    }

    // MARK: - Changes

    /// Adds an album at `position` (1-based; default: at the end) and returns it with its id
    /// and the position it took (what `add` reports, without reading it back).
    @discardableResult
    public func add(_ record: AlbumRecord, at position: Int? = nil) async throws -> (album: Album, position: Int) {
        let album = try record.validated(newID: .generate(), label: "'\(record.title)'")
        return try await change { albums, plan in
            let count = try await albums.count()
            let index = (position ?? count + 1) - 1
            guard (0...count).contains(index) else {
                throw AlbumKitError(.noSuchAlbum, "cannot add at position \(index + 1): positions run from 1 to \(count + 1)")
            }
            if let taken = try await albums.index(of: album.id) {
                throw AlbumKitError(.libraryState, "album '\(album.title)': the id '\(album.id)' is already used by the album at position \(taken + 1)")
            }
            plan.record("add '\(album.title)'", [.insert(album, at: index)])
            return (album, index + 1)
        }
    }

    /// Changes the fields `patch` names; returns the album as it is now.
    @discardableResult
    public func update(_ reference: AlbumReference, _ patch: AlbumPatch) async throws -> Album {
        let reference = try await pinned(reference)
        return try await change { albums, plan in
            let (_, before) = try await albums.resolve(reference)
            let after = try patch.applied(to: before)
            if after != before { plan.record("update '\(before.title)'", [.update(before: before, after: after)]) }
            return after
        }
    }

    /// Removes the albums `references` name (resolved all at once, as listed before the
    /// change), as one step of history. Returns them in library order.
    @discardableResult
    public func remove(_ references: [AlbumReference]) async throws -> [Album] {
        var pinnedReferences: [AlbumReference] = []
        for reference in references { pinnedReferences.append(try await pinned(reference)) }
        let references = pinnedReferences
        return try await change { albums, plan in
            var found: [Int: Album] = [:]
            for reference in references {
                let (index, album) = try await albums.resolve(reference)
                found[index] = album
            }
            let descending = found.keys.sorted(by: >)
            let label = found.count == 1 ? "remove '\(found.values.first!.title)'" : "remove \(found.count) albums"
            plan.record(label, descending.map { .remove(found[$0]!, at: $0) })
            return descending.reversed().map { found[$0]! }
        }
    }

    /// Moves an album to `position` (1-based).
    public func move(_ reference: AlbumReference, to position: Int) async throws {
        let reference = try await pinned(reference)
        try await change { albums, plan in
            let (from, album) = try await albums.resolve(reference)
            let count = try await albums.count()
            guard position >= 1, position <= count else { throw AlbumKitError.noSuchAlbum("position \(position)", count: count) }
            if from != position - 1 {
                plan.record("move '\(album.title)' from \(from + 1) to \(position)", [.move(album.id, from: from, to: position - 1)])
            }
        }
    }

    /// Makes the album `reference` names current. Not a step of history.
    @discardableResult
    public func select(_ reference: AlbumReference) async throws -> Album {
        let reference = try await pinned(reference)
        return try await change { albums, plan in
            let (_, album) = try await albums.resolve(reference)
            plan.current = .some(album.id)
            return album
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

    /// Applies the edits `makeEdits` derives from the whole library as it is under the lock,
    /// as one step of history labelled `label`; returns what `makeEdits` returned beside them.
    /// No edits: nothing is saved or recorded. The door import and other pipelines use.
    public func commit<Result: Sendable>(
        label: String, _ makeEdits: (LibrarySnapshot) throws -> ([LibraryEdit], Result)
    ) async throws -> Result {
        try await change { albums, plan in
            let whole = LibrarySnapshot(albums: try await albums.albums(in: 0..<(try await albums.count())), state: plan.state)
            let (edits, result) = try makeEdits(whole)
            plan.record(label, edits)
            return result
        }
    }

    /// Records what fetching gave for each reference, and what the lookup services answered,
    /// in the memento (not a step of history).
    public func recordCovers(_ resolutions: [String: CoverResolution], lookups: [String: LookupAnswer] = [:]) async throws {
        try await change { _, plan in
            plan.covers = resolutions
            plan.lookups = lookups
        }
    }

    /// Replaces albums, memento and history with `replacement` and `steps` (restore, init,
    /// migrate). Not a step of history. Readers see the old library until the new one is saved.
    func replaceAll(with incoming: LibrarySnapshot, steps incomingSteps: [Int64: HistoryStep] = [:]) async throws {
        let writer = try await beginWrite()
        var replacement = incoming
        do {
            let old = if let reads = writer.pointReads { try await reads.state() } else { try await writer.load().state }
            let steps: [Int64: HistoryStep]
            (replacement.state, steps) = incoming.state.renumbered(from: old.nextStep, incomingSteps)
            try await writer.save(replacement, change: .replaceAll(steps: steps))
        } catch {
            await writer.finish()
            throw error
        }
        await writer.finish()
        memento = replacement.state
        held = storage.pointReads == nil ? replacement.albums : nil
        let state = replacement.state
        hub.publish(.stateRestored(current: state.current, undoSteps: state.undo.count, redoSteps: state.redo.count))
        hub.publish(.saved(location: storage.location, albumCount: replacement.albums.count))
    }

    /// The storage's writer. With the lock held, what a process killed mid-write left in the
    /// library folder — cover staging folders, the folder marker's temporary file — is removed
    /// (``LeftoverFiles``: only what no live process holds), whatever the backend.
    private func beginWrite() async throws -> any StorageWriter {
        let writer = try await storage.beginWrite()
        if let leftoversFolder { LeftoverFiles.sweep(leftoversFolder) }
        return writer
    }

    private func walkHistory(forward: Bool) async throws -> LibraryChange {
        try await change { albums, plan in
            guard let ref = forward ? plan.state.redo.last : plan.state.undo.last else {
                throw AlbumKitError(.historyEmpty, forward ? "nothing to redo" : "nothing to undo")
            }
            guard let step = try await plan.writer.steps([ref.id])[ref.id] else {
                throw AlbumKitError(.libraryState, "\(storage.location): history step \(ref.id) ('\(ref.label)') is not stored; the history cannot be walked")
            }
            let change: LibraryChange
            if let range = step.appendedRange {
                change = try step.change(reading: PositionedAlbums(start: range.lowerBound, albums: try await albums.albums(in: range)))
            } else {
                change = try step.change(reading: [Album]())
            }
            plan.walk(ref, change: change, forward: forward)
            return change
        }
    }

    /// Plans a change against the library as it is under the writer lock, then applies and
    /// saves it. A library held in memory is changed in place: nothing suspends between taking
    /// the loaded albums and the end of the edits, so readers never see a partial change and a
    /// backend's cached albums are never copied. When the save fails, the edits are taken back
    /// and the memento restored, so memory matches the disk again. Publishes the change's
    /// events and `library.saved`.
    func change<Result>(_ planning: (any AlbumsView, inout ChangePlan) async throws -> Result) async throws -> Result {
        let writer = try await beginWrite()
        do {
            let result = try await change(with: writer, planning)
            await writer.finish()
            return result
        } catch {
            await writer.finish()
            throw error
        }
    }

    private func change<Result>(
        with writer: any StorageWriter, _ planning: (any AlbumsView, inout ChangePlan) async throws -> Result
    ) async throws -> Result {
        if let reads = writer.pointReads {
            var plan = ChangePlan(state: try await reads.state(), writer: writer, historyLimit: historyLimit)
            let view = AlbumsByPointReads(reads: reads)
            let result = try await planning(view, &plan)
            guard let stored = plan.finish() else { return result }
            var state = plan.newState
            state.current = try await CurrentAlbum.after(stored.edits, current: state.current, in: view)
            // Counted from the library read before the save: a count after it reads the store
            // again (a json file whole, every album of a large import in memory at its end).
            let countBefore = stored.addedAlbums == nil ? nil : try await reads.count()
            try await writer.save(LibrarySnapshot(albums: [], state: state, isWhole: false), change: stored)
            // The answers are read from the store by key (``lookupAnswers(_:)``), not kept here.
            state.lookups = [:]
            memento = state
            let count = if let countBefore, let added = stored.addedAlbums { countBefore + added } else { try await reads.count() }
            publish(plan, state: state, count: count)
            return result
        }
        var loaded = try await writer.load()
        held = loaded.albums  // the latest committed library: readers may see it from now on
        var plan = ChangePlan(state: loaded.state, writer: writer, historyLimit: historyLimit)
        let result = try await planning(AlbumsInMemory(albums: loaded.albums), &plan)
        loaded = LibrarySnapshot()
        guard let stored = plan.finish() else {
            memento = plan.state
            return result
        }
        // From here to the save nothing suspends: the albums are changed in place.
        var snapshot = LibrarySnapshot(albums: held ?? [], state: plan.newState)
        held = nil
        do {
            try snapshot.apply(LibraryChange(label: "", edits: stored.edits))
        } catch {
            held = snapshot.albums
            throw error
        }
        let appended = stored.appended
        // A run's albums are not in memory: from now on readers load the library, which shows
        // them once the save is done.
        held = appended == nil ? snapshot.albums : nil
        let before = memento
        memento = snapshot.state
        do {
            try await writer.save(snapshot, change: stored)
        } catch {
            if appended == nil {
                snapshot.albums = []
                swap(&snapshot.albums, &held!)
            }
            snapshot.revert(stored.edits)
            held = snapshot.albums
            memento = before
            throw error
        }
        publish(plan, state: memento, count: snapshot.albums.count + (appended?.count ?? 0))
        return result
    }

    /// Publishes the change's events, then `library.saved`. An appended run's albums are read
    /// back from its scratch file, one at a time — only when a subscriber takes the events they
    /// make: a pass over 100 000 albums otherwise decoded each for nothing (BENCHMARKS.md).
    private func publish(_ plan: ChangePlan, state: LibraryState, count: Int) {
        for event in Self.events(for: plan.appliedEdits) + Self.coverRequests(for: plan.appliedEdits, state: state) { hub.publish(event) }
        if let (run, index) = plan.appendedRun, hub.takes("library.albumAdded") || (run.namesCovers && hub.takes("cover.requested")) {
            var albums = run.reader()
            var position = index
            // The run was written and read back by this process: a read failing now (the disk)
            // leaves its events unsaid, not the change unsaved.
            while let album = try? albums.next() {
                position += 1
                hub.publish(.albumAdded(album, position: position))
                for event in Self.coverRequests(for: [.insert(album, at: position - 1)], state: state) { hub.publish(event) }
            }
        }
        hub.publish(.saved(location: storage.location, albumCount: count))
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

/// Albums read from `start` on, indexed by their library position.
private struct PositionedAlbums: RandomAccessCollection {
    let start: Int
    let albums: [Album]
    var startIndex: Int { 0 }
    var endIndex: Int { start + albums.count }
    subscript(position: Int) -> Album { albums[position - start] }
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
