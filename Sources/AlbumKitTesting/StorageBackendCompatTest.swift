import AlbumKit
import Foundation
import Synchronization

/// The behaviour every ``StorageBackend`` must show, as a library any adapter's tests run —
/// in the manner of swift-configuration's `ProviderCompatTest`: every promise of the port's
/// "Implementation requirements" has a check here. Each ``Check`` runs against backends that
/// `makeBackend` returns for one fresh, empty location (every call during a check must return a
/// backend at that same location, with the lock timeout asked for), and throws a
/// ``CompatFailure`` that says what differed.
///
/// ```swift
/// @Test(arguments: StorageBackendCompatTest.Check.allCases)
/// func conformance(_ check: StorageBackendCompatTest.Check) async throws {
///     let folder = try TemporaryFolder()
///     defer { folder.remove() }
///     try await StorageBackendCompatTest { timeout in MyStorage(folder.url, lockTimeout: timeout) }.run(check)
/// }
/// ```
/// A backend that cannot be damaged from outside in a way the suite knows gives
/// ``init(damage:makeBackend:)`` a `damage` closure; without one, that check says it was skipped.
public struct StorageBackendCompatTest: Sendable {
    /// One behaviour the suite checks.
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        case missingLibraryFailsToLoad
        case createMakesEmptyLibraryOnce
        case albumsRoundTripInOrder
        case unicodeAndLongFieldsRoundTrip
        case everyFieldRoundTrips
        case albumsAtEveryFieldsLimit
        case everyEditKindPersists
        case mementoSurvivesReopening
        case historyIsBounded
        case historyStepsAreStoredApart
        case importUndoneAndRedoneInLaterProcesses
        case appendedRunFollowsTheEdits
        case importedListIsOneStepInLaterProcesses
        case stateFileRoundTripsExactly
        case lookupAnswersAreReadByKey
        case concurrentWritersAllLand
        case replaceAllReplacesEverything
        case coverStoreIsContentAddressed
        case coverBatchStoresOnlyNewCovers
        case secondWriterGivesUpAfterTheLockTimeout
        case droppedWriterReleasesTheLock
        case finishTwiceIsHarmless
        case damagedLibraryIsLeftUntouched
        case pointReadsAgreeWithLoad
        case pointReadsSeeAnotherProcessesChanges
        case pointReadsAtTheEdges
        case unusualIDsFoundByPointReads
        case randomChangesMatchAPlainList
        case piecesGiveWhatLoadGives

        public var description: String { rawValue }
    }

    private let makeBackend: @Sendable (_ lockTimeout: Double) async throws -> any StorageBackend
    private let damage: (@Sendable (any StorageBackend) async throws -> @Sendable () throws -> Data)?

    /// A suite whose checks use backends from `makeBackend` at one fresh, empty location per
    /// check; `damage`, when given, damages the stored library and returns how to fingerprint it.
    public init(
        damage: (@Sendable (any StorageBackend) async throws -> @Sendable () throws -> Data)? = nil,
        makeBackend: @escaping @Sendable (_ lockTimeout: Double) async throws -> any StorageBackend
    ) {
        self.damage = damage
        self.makeBackend = makeBackend
    }

    /// Runs one check.
    public func run(_ check: Check) async throws {
        // Twenty writers queue behind one another: on a loaded machine the last waits for all
        // nineteen, and that check is that every one lands, not how soon.
        let backend = try await makeBackend(check == .concurrentWritersAllLand ? 300 : 30)
        switch check {
        case .missingLibraryFailsToLoad: try await missingLibraryFailsToLoad(backend)
        case .createMakesEmptyLibraryOnce: try await createMakesEmptyLibraryOnce(backend)
        case .albumsRoundTripInOrder: try await roundTrip(backend, CompatFixtures.albums(count: 250))
        case .unicodeAndLongFieldsRoundTrip: try await roundTrip(backend, CompatFixtures.unusualAlbums())
        case .everyFieldRoundTrips: try await everyFieldRoundTrips(backend)
        case .albumsAtEveryFieldsLimit: try await albumsAtEveryFieldsLimit(backend)
        case .everyEditKindPersists: try await everyEditKindPersists(backend)
        case .mementoSurvivesReopening: try await mementoSurvivesReopening(backend)
        case .historyIsBounded: try await historyIsBounded(backend)
        case .historyStepsAreStoredApart: try await historyStepsAreStoredApart(backend)
        case .importUndoneAndRedoneInLaterProcesses: try await importUndoneAndRedone(backend)
        case .appendedRunFollowsTheEdits: try await appendedRunFollowsTheEdits(backend)
        case .importedListIsOneStepInLaterProcesses: try await importedListIsOneStep(backend)
        case .stateFileRoundTripsExactly: try await stateFileRoundTrips(backend)
        case .lookupAnswersAreReadByKey: try await lookupAnswersAreReadByKey(backend)
        case .concurrentWritersAllLand: try await concurrentWritersAllLand(backend)
        case .replaceAllReplacesEverything: try await replaceAllReplacesEverything(backend)
        case .coverStoreIsContentAddressed: try await coverStoreIsContentAddressed(backend)
        case .coverBatchStoresOnlyNewCovers: try await coverBatchStoresOnlyNewCovers(backend)
        case .secondWriterGivesUpAfterTheLockTimeout: try await lockTimeout(backend)
        case .droppedWriterReleasesTheLock: try await droppedWriterReleasesTheLock(backend)
        case .finishTwiceIsHarmless: try await finishTwiceIsHarmless(backend)
        case .damagedLibraryIsLeftUntouched: try await damagedLibraryIsLeftUntouched(backend)
        case .pointReadsAgreeWithLoad: try await pointReadsAgreeWithLoad(backend)
        case .pointReadsSeeAnotherProcessesChanges: try await pointReadsSeeAnotherProcessesChanges(backend)
        case .pointReadsAtTheEdges: try await pointReadsAtTheEdges(backend)
        case .unusualIDsFoundByPointReads: try await unusualIDsFoundByPointReads(backend)
        case .randomChangesMatchAPlainList: try await randomChangesMatchAPlainList(backend)
        case .piecesGiveWhatLoadGives: try await piecesGiveWhatLoadGives(backend)
        }
    }

    /// Runs every check in order.
    public func runAll() async throws {
        for check in Check.allCases { try await run(check) }
    }

    // MARK: - Library files and rows

    private func missingLibraryFailsToLoad(_ backend: any StorageBackend) async throws {
        try expect(try await backend.exists() == false, "a fresh location must hold no library")
        do {
            _ = try await backend.load()
            throw CompatFailure("load() of a missing library must throw")
        } catch let error as AlbumKitError {
            try expect(error.kind == .libraryState, "load() of a missing library threw \(error.kind), not libraryState")
        }
    }

    private func createMakesEmptyLibraryOnce(_ backend: any StorageBackend) async throws {
        try await backend.create()
        try expect(try await backend.exists(), "exists() must be true after create()")
        try expect(try await backend.load() == LibrarySnapshot(), "a new library must be empty")
        let hub = NotificationHub()
        try await Library.open(backend, hub: hub).add(AlbumRecord(title: "Kept", artist: "A"))
        do {
            try await backend.create()
            throw CompatFailure("create() over an existing library must throw")
        } catch let error as AlbumKitError {
            try expect(error.kind == .libraryState, "create() over a library threw \(error.kind), not libraryState")
        }
        try expect(try await backend.load().albums.map(\.title) == ["Kept"], "a refused create() must leave the library as it was")
    }

    private func roundTrip(_ backend: any StorageBackend, _ albums: [Album]) async throws {
        try await backend.create()
        let snapshot = LibrarySnapshot(albums: albums, state: LibraryState(current: albums[albums.count / 2].id))
        try await backend.withWriter { writer, _ in try await writer.save(snapshot, change: .replaceAll()) }
        let loaded = try await backend.load()
        try expect(loaded.albums.count == albums.count, "saved \(albums.count) albums, loaded \(loaded.albums.count)")
        for (saved, read) in zip(albums, loaded.albums) where saved != read {
            throw CompatFailure("album changed in the round trip:\n  saved  \(saved)\n  loaded \(read)")
        }
        try expect(loaded == snapshot, "the state changed in the round trip")
    }

    /// SPEC 1: every field survives a save and a load, point reads, an update of fields beyond
    /// the core six and its undo and redo, in this process and the next.
    private func everyFieldRoundTrips(_ backend: any StorageBackend) async throws {
        let albums = CompatFixtures.wholeAlbums()
        try await roundTrip(backend, albums)
        if let reads = backend.pointReads {
            try expect(try await reads.albums(in: 0..<2) == albums, "point reads give other fields than were saved")
        }
        let library = try await Library.open(backend, hub: NotificationHub())
        var patch = AlbumPatch()
        try patch.set("label", to: "Warp")
        try patch.set("rating", to: "2")
        try patch.set("source0.key0", to: "calm")
        try patch.unset("notes")
        let changed = try await library.update(.position(1), patch)
        try expect(changed.details[.label] == "Warp" && changed.rating == 2 && changed.fields["source0.key0"] == "calm" && changed.details[.notes] == nil,
            "update did not change the named fields as asked")
        try expect(changed.tracks == albums[0].tracks && changed.ids == albums[0].ids, "update lost fields it was not asked to change")
        let reopened = try await backend.load()
        try expect(reopened.albums[0] == changed, "the updated album changed on its way to the store:\n  saved  \(changed.details[.label] ?? "-")\n  loaded \(reopened.albums[0].details[.label] ?? "-")")
        let later = try await Library.open(try await makeBackend(30), hub: NotificationHub())
        try await later.undo()
        try expect(try await backend.load().albums == albums, "undo in a later process did not bring every field back")
        try await later.redo()
        try expect(try await backend.load().albums[0] == changed, "redo did not apply every field again")
    }

    /// Albums at every field's limit (``CompatFixtures/albumsAtTheLimits()``) are saved whole,
    /// added and updated one at a time, and found by their duplicate key.
    private func albumsAtEveryFieldsLimit(_ backend: any StorageBackend) async throws {
        let albums = CompatFixtures.albumsAtTheLimits()
        try await roundTrip(backend, albums)
        let library = try await Library.open(backend, hub: NotificationHub())
        try await library.remove([.position(1)])
        let first = albums[0]
        try await library.add(AlbumRecord(id: first.id, title: first.title, artist: first.artist, genre: first.genre, year: first.year, coverUrl: first.coverUrl))
        try await library.update(.position(1), AlbumPatch(year: "2000"))
        try await expectStored(backend, equals: try await library.snapshot(), after: "a remove, an add and an update of albums at the limits")
        try await expectDuplicateLookups(backend, in: try await backend.load().albums, after: "albums at the limits")
    }

    private func everyEditKindPersists(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        for album in CompatFixtures.albums(count: 6) {
            try await library.add(AlbumRecord(id: album.id, title: album.title, artist: album.artist, year: album.year))
        }
        try await library.add(AlbumRecord(title: "Inserted", artist: "At Two"), at: 2)
        try await library.update(.position(1), AlbumPatch(title: "Renamed", year: "1999"))
        try await library.move(.position(7), to: 1)
        try await library.remove([.position(2), .position(5)])
        try await library.select(.position(3))
        try await library.undo()
        try await library.undo()
        try await library.redo()
        try await expectStored(backend, equals: try await library.snapshot(), after: "add, insert, update, move, remove, undo, redo")
        try await library.remove([.position(1)])
        try await expectStored(backend, equals: try await library.snapshot(), after: "a remove that clears redo")
    }

    private func mementoSurvivesReopening(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let first = try await Library.open(backend, hub: NotificationHub())
        for album in CompatFixtures.albums(count: 4) {
            try await first.add(AlbumRecord(title: album.title, artist: album.artist))
        }
        try await first.select(.position(3))
        try await first.remove([.position(2)])
        try await first.undo()
        let expected = try await first.snapshot()
        let second = try await Library.open(backend, hub: NotificationHub())
        try expect(try await second.snapshot() == expected, "reopening changed the library or its memento")
        try expect(try await second.currentAlbum()?.title == expected.albums[2].title, "the current album did not survive reopening")
        try await second.redo()
        try expect(try await second.count() == 3, "redo after reopening did not remove the album again")
    }

    private func historyIsBounded(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub(), historyLimit: 10)
        for index in 1...14 { try await library.add(AlbumRecord(title: "Album \(index)", artist: "Bounded")) }
        let state = try await backend.load().state
        try expect(state.undo.count == 10, "history kept \(state.undo.count) steps, the limit is 10")
        try expect(state.undo.first?.label == "add 'Album 5'", "the oldest steps must be the ones dropped")
        let stored = try await backend.steps((1...14).map(Int64.init))
        try expect(Set(stored.keys) == Set(state.undo.map(\.id)), "the dropped steps must be gone from storage, the kept ones stored")
    }

    /// The memento names steps; the steps themselves are read only when asked for.
    private func historyStepsAreStoredApart(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        try await library.add(AlbumRecord(title: "One", artist: "A"))
        try await library.remove([.position(1)])
        let state = try await backend.load().state
        try expect(state.undo.map(\.label) == ["add 'One'", "remove 'One'"], "the memento lists the steps by label: \(state.undo)")
        let steps = try await backend.steps(state.stepIDs)
        try expect(steps.count == 2, "both steps must be stored, found \(steps.count)")
        try expect(steps[state.undo[0].id]?.appended?.count == 1, "an add is stored as an appended run, not the album again")
        guard case .remove(let album, 0)? = steps[state.undo[1].id]?.edits.first else {
            throw CompatFailure("a remove step must hold the album it removed")
        }
        try expect(album.title == "One", "the remove step holds the wrong album")
    }

    /// An import of 10 000 albums is one step; a later process undoes it, another redoes it.
    private func importUndoneAndRedone(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let albums = CompatFixtures.albums(count: 10_000)
        let first = try await Library.open(backend, hub: NotificationHub())
        try await first.add(AlbumRecord(title: "Before", artist: "A"))
        _ = try await first.commit(label: "import 10000 albums") { snapshot in
            (albums.enumerated().map { .insert($0.element, at: snapshot.albums.count + $0.offset) }, ())
        }
        let stored = try await backend.load().state
        let importStep = try await backend.steps([stored.undo.last!.id]).values.first
        try expect(importStep?.edits.isEmpty == true && importStep?.appended?.count == 10_000, "the import step must record a run, not hold 10 000 albums again")
        let second = try await Library.open(backend, hub: NotificationHub())
        try await second.undo()
        try expect(try await backend.load().albums.map(\.title) == ["Before"], "undo of the import in a later process must leave the album before it")
        let third = try await Library.open(backend, hub: NotificationHub())
        try await third.redo()
        let after = try await backend.load().albums
        try expect(after.count == 10_001 && Array(after.dropFirst()) == albums, "redo in a later process must bring the 10 000 albums back in order")
        try await third.undo()
        try await third.undo()
        try expect(try await backend.load().albums.isEmpty, "both steps undo")
    }

    /// A save that appends a run (``StoredChange/Albums/appending(_:after:)``) applies the
    /// edits, then stores the run's albums after them, in order, read from its scratch file —
    /// across the places a row store cuts its order — with the memento, which may name an album
    /// of the run; a later process reads the same.
    private func appendedRunFollowsTheEdits(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let first = CompatFixtures.albums(count: 5)
        try await backend.withWriter { writer, _ in
            try await writer.save(LibrarySnapshot(albums: first), change: .edits(first.enumerated().map { .insert($1, at: $0) }))
        }
        let run = CompatFixtures.albums(count: 1_305).map { album in
            var album = album
            album.id = AlbumID("run-\(album.id.rawValue)")
            return album
        }
        var renamed = first[3]
        renamed.title = "Renamed"
        let edits: [LibraryEdit] = [.update(before: first[3], after: renamed), .remove(first[0], at: 0)]
        var after = LibrarySnapshot(albums: first)
        try after.apply(LibraryChange(label: "", edits: edits))
        after.state.current = run[700].id
        let appended = AlbumRun(run)
        try await backend.withWriter { writer, _ in
            try await writer.save(after, change: StoredChange(albums: .appending(appended, after: edits)))
        }
        let expected = after.albums + run
        try await expectReads(backend, equal: expected, after: "a save that appends 1 305 albums after two edits")
        try expect(try await backend.load().state.current == run[700].id, "the memento saved with the run must name the run's album")
        let later = try await makeBackend(30)
        try expect(try await later.load().albums == expected, "a later process must read the edits and the run")
    }

    /// An import of a 3 000-album list (`Library.importAlbums`, whose commit appends the new
    /// albums as a run) is one step: its step records where the run lies; a later process
    /// undoes it, another redoes it.
    private func importedListIsOneStep(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumkit-compat-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let albums = CompatFixtures.albums(count: 3_000)
        let list = folder.appendingPathComponent("albums.json")
        try JSONEncoder().encode(albums).write(to: list)
        let first = try await Library.open(backend, hub: NotificationHub())
        try await first.add(AlbumRecord(title: "Before", artist: "A"))
        let report = try await first.importAlbums(from: [list]).report
        try expect(report.summary.added == 3_000, "the import must add 3 000 albums, not \(report.summary.added)")
        try await expectReads(backend, equal: [try await backend.load().albums[0]] + albums, after: "an import of 3 000 albums")
        let stored = try await backend.load().state
        let step = try await backend.steps([stored.undo.last!.id]).values.first
        try expect(step?.edits.isEmpty == true && step?.appended?.count == 3_000 && step?.appended?.index == 1,
                   "the import step must record its run at position 2, not hold 3 000 albums again")
        try await Library.open(backend, hub: NotificationHub()).undo()
        try expect(try await backend.load().albums.map(\.title) == ["Before"], "undo of the import in a later process must leave the album before it")
        try await Library.open(backend, hub: NotificationHub()).redo()
        try expect(Array(try await backend.load().albums.dropFirst()) == albums, "redo in a later process must bring the 3 000 albums back in order")
    }

    /// A bundle's `state.json` put into the library (its lookup answers too) comes back out exactly.
    private func stateFileRoundTrips(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let albums = CompatFixtures.albums(count: 5)
        let file = StateFile(
            current: albums[1].id,
            undo: [
                HistoryStep(compacting: LibraryChange(label: "import 2 albums", edits: [.insert(albums[3], at: 3), .insert(albums[4], at: 4)])),
                HistoryStep(LibraryChange(label: "update 'Album 0'", edits: [.update(before: albums[0], after: albums[0])])),
            ],
            redo: [HistoryStep(LibraryChange(label: "remove 'Gone'", edits: [.remove(try Album(id: "gone", title: "Gone", artist: "A"), at: 2)]))],
            covers: ["https://example.com/a.jpg": .failed("404")],
            lookups: [
                "coverartarchive search:release:\"Album 0\" AND artist:\"A\"": LookupAnswer(
                    at: Date(timeIntervalSince1970: 1_795_000_000), ids: ["musicbrainz": "b84ee12a-09ef-421b-82de-0441a926375b"],
                    missed: "no front image at the Cover Art Archive"),
                "itunes search:A Album 1": LookupAnswer(
                    at: Date(timeIntervalSince1970: 1_795_000_001), cover: CoverKey(fileName: String(repeating: "ab", count: 32) + ".png"),
                    ids: ["itunes": "1440857781"]),
                "discogs release:249504": LookupAnswer(at: Date(timeIntervalSince1970: 1_795_000_002), failed: "discogs: timed out"),
                // What an enricher found: the album as the service knows it, every field kept.
                "enrich.musicbrainz release:b84ee12a-09ef-421b-82de-0441a926375b": LookupAnswer(
                    at: Date(timeIntervalSince1970: 1_795_000_004), album: CompatFixtures.wholeAlbums()[0]),
            ])
        let (state, steps) = file.memento()
        try await backend.withWriter { writer, _ in
            try await writer.save(LibrarySnapshot(albums: albums, state: state), change: .replaceAll(steps: steps))
        }
        let contents = ExportContents(storage: backend)
        let loaded = try await contents.snapshot()
        try expect(loaded.albums == albums, "an export read other albums than were saved")
        try expect(try await contents.stateFile(of: loaded.state) == file, "state.json did not come back exactly")
        // Answers recorded later, as `covers fetch` records them, join those kept.
        let later = ["itunes search:A Album 2": LookupAnswer(at: Date(timeIntervalSince1970: 1_795_000_003), missed: "no album of that artist and title")]
        try await Library.open(backend, hub: NotificationHub()).recordCovers([:], lookups: later)
        try expect(try await backend.load().state.lookups == file.lookups.merging(later) { $1 }, "lookup answers recorded by a change were not kept")
    }

    /// The lookup answers are the library's: recorded by a change, read back by key in a later
    /// process (more keys than one statement takes too), replaced under their key, handed over
    /// whole by `load()`, and replaced with the library by `replaceAll` (a restore).
    private func lookupAnswersAreReadByKey(_ backend: any StorageBackend) async throws {
        try await backend.create()
        try await Library.open(backend, hub: NotificationHub()).add(AlbumRecord(title: "Kept", artist: "A"))
        let at = Date(timeIntervalSince1970: 1_795_000_000)
        var answers: [String: LookupAnswer] = [:]
        for index in 0..<1_200 {
            answers["itunes search:A Album \(index)"] = LookupAnswer(at: at + Double(index), ids: ["itunes": "\(index)"], missed: "no artwork \(index)")
        }
        let release = "enrich.musicbrainz release:b84ee12a-09ef-421b-82de-0441a926375b"
        answers[release] = LookupAnswer(at: at, album: CompatFixtures.wholeAlbums()[0])
        try await Library.open(backend, hub: NotificationHub()).recordCovers([:], lookups: answers)
        let asked = ["itunes search:A Album 7", "itunes search:A Album 1199", release, "itunes search:never asked"]
        try expect(
            try await Library.open(backend, hub: NotificationHub()).lookupAnswers(asked) == answers.filter { asked.contains($0.key) },
            "a later process must read the answers under the keys it asks, and no others")
        try expect(
            try await Library.open(backend, hub: NotificationHub()).lookupAnswers(Array(answers.keys)) == answers,
            "a later process must read all 1 201 answers when it asks for every key")
        let found = LookupAnswer(at: at + 9_000, cover: CoverKey(fileName: String(repeating: "cd", count: 32) + ".jpg"), ids: ["itunes": "7"])
        try await Library.open(backend, hub: NotificationHub()).recordCovers([:], lookups: ["itunes search:A Album 7": found])
        answers["itunes search:A Album 7"] = found
        try expect(
            try await Library.open(backend, hub: NotificationHub()).lookupAnswers(["itunes search:A Album 7"]) == ["itunes search:A Album 7": found],
            "an answer recorded again under its key must replace the one before")
        let loaded = try await backend.load()
        try expect(loaded.state.lookups == answers, "load() must hand over every answer (\(loaded.state.lookups.count) of \(answers.count))")
        try expect(loaded.albums.map(\.title) == ["Kept"], "recording answers must leave the albums as they were")
        let restored = ["discogs release:249504": LookupAnswer(at: at, failed: "discogs: timed out")]
        try await backend.withWriter { writer, _ in
            try await writer.save(LibrarySnapshot(albums: [], state: LibraryState(lookups: restored)), change: .replaceAll())
        }
        try expect(
            try await Library.open(backend, hub: NotificationHub()).lookupAnswers(Array(answers.keys) + Array(restored.keys)) == restored,
            "a library replaced (restore) must hold the answers it was replaced with, and none of the old ones")
    }

    private func concurrentWritersAllLand(_ backend: any StorageBackend) async throws {
        try await backend.create()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let library = try await Library.open(backend, hub: NotificationHub())
                    try await library.add(AlbumRecord(title: "Writer \(index)", artist: "Concurrent"))
                }
            }
            try await group.waitForAll()
        }
        let stored = try await backend.load()
        try expect(stored.albums.count == 20, "20 concurrent writers left \(stored.albums.count) albums")
        try expect(Set(stored.albums.map(\.title)).count == 20, "concurrent writers overwrote each other")
        try expect(stored.state.undo.count == 20, "concurrent writers left \(stored.state.undo.count) history steps, not 20")
        try expect(try await backend.steps(stored.state.stepIDs).count == 20, "every writer's step must be stored")
    }

    private func replaceAllReplacesEverything(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        for album in CompatFixtures.albums(count: 5) { try await library.add(AlbumRecord(title: album.title, artist: album.artist)) }
        let old = try await backend.load().state.stepIDs
        let replacement = LibrarySnapshot(albums: CompatFixtures.albums(count: 3), state: LibraryState(current: CompatFixtures.albums(count: 3)[1].id))
        try await backend.withWriter { writer, _ in try await writer.save(replacement, change: .replaceAll()) }
        try await expectStored(backend, equals: replacement, after: "replaceAll")
        try expect(try await backend.steps(old).isEmpty, "a replacement must drop the steps of the history it replaced")
    }

    private func coverStoreIsContentAddressed(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let store = backend.covers
        let bytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let key = try await store.put(bytes, fileExtension: "png")
        let again = try await store.put(bytes, fileExtension: "png")
        try expect(key == again, "the same bytes must get the same key")
        try expect(key == CoverKey(bytes: bytes, fileExtension: "png"), "the key must be the SHA-256 of the bytes")
        try expect(try await store.keys() == [key], "the same bytes stored twice must be kept once")
        try expect(try await store.data(for: key) == bytes, "the stored bytes must come back exactly")
        try expect(try await store.contains(key), "contains() must see a stored cover")
        let other = try await store.put(Data("other".utf8), fileExtension: "jpg")
        try expect(try await store.keys() == [key, other].sorted(), "keys() must list every cover, sorted")
        try expect(try await store.keySet() == [key, other], "keySet() must hold the keys keys() lists")
        let sameDigestOtherType = CoverKey(sha256: key.sha256, fileExtension: "jpg")
        let unknown = CoverKey(bytes: Data("never stored".utf8), fileExtension: "png")
        let batch = try await store.data(for: [other, unknown, key, sameDigestOtherType, key])
        try expect(batch == [Data("other".utf8), nil, bytes, nil, bytes],
                   "a batch read must answer every key in order, nil for unknown ones, a key asked twice twice")
        try expect(try await store.data(for: [CoverKey]()).isEmpty, "an empty batch must read as empty")
        try expect(try await store.remove(key) == bytes.count, "remove() must report the bytes freed")
        try expect(try await store.contains(key) == false, "a removed cover must be gone")
        try expect(try await store.data(for: key) == nil, "a removed cover must read as nil")
        let asJPEG = try await store.put(bytes, fileExtension: "jpg")
        let asPNG = try await store.put(bytes, fileExtension: "png")
        try expect(try await store.keys() == [other, asJPEG, asPNG].sorted { $0.fileName < $1.fileName },
                   "keys() must list every cover once, in the order of their file names (one digest, two types: two covers)")
    }

    private func coverBatchStoresOnlyNewCovers(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let store = backend.covers
        let covers = (0..<40).map { index in
            let bytes = Data((0..<(100 + index * 37)).map { UInt8(truncatingIfNeeded: $0 &* (index + 3)) })
            return (key: CoverKey(bytes: bytes, fileExtension: index % 2 == 0 ? "png" : "jpg"), bytes: bytes)
        }
        let stored = try await store.put(covers[7].bytes, fileExtension: covers[7].key.fileExtension)
        let batch = covers[5..<20] + [covers[9], covers[7]]
        let added = try await store.insert(Array(batch))
        try expect(added == covers[5..<20].map(\.key).filter { $0 != stored },
                   "insert() must return the covers it newly stored, each once, in the order given: \(added.count) returned")
        try await store.makeDurable()
        try expect(try await store.keys() == covers[5..<20].map(\.key).sorted(), "insert() must store every new cover of the batch, and each once")
        for cover in covers[5..<20] {
            try expect(try await store.data(for: cover.key) == cover.bytes, "a cover stored by insert() must read back exactly")
        }
        try expect(try await store.insert(Array(covers[0..<10])) == covers[0..<5].map(\.key),
                   "a second batch must add only the covers not stored yet")
        try expect(try await store.insert([]).isEmpty, "an empty batch must store nothing")
        try expect(try await store.keys().count == 20, "every cover must be stored once")
    }

    // MARK: - The writer lock

    private func lockTimeout(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let holder = try await backend.beginWrite()
        let waiting = try await makeBackend(0.3)
        do {
            let second = try await waiting.beginWrite()
            await second.finish()
            await holder.finish()
            throw CompatFailure("a second writer must not get the lock while the first holds it")
        } catch let error as AlbumKitError {
            try expect(error.kind == .lockTimeout, "a second writer failed with \(error.kind), not lockTimeout: \(error)")
        }
        await holder.finish()
        let after = try await waiting.beginWrite()
        await after.finish()
    }

    private func droppedWriterReleasesTheLock(_ backend: any StorageBackend) async throws {
        try await backend.create()
        do {
            let dropped = try await backend.beginWrite()
            _ = try await dropped.load()
        }
        let next = try await makeBackend(5).beginWrite()
        await next.finish()
    }

    private func finishTwiceIsHarmless(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let writer = try await backend.beginWrite()
        _ = try await writer.load()
        await writer.finish()
        await writer.finish()
        let library = try await Library.open(try await makeBackend(5), hub: NotificationHub())
        try await library.add(AlbumRecord(title: "After", artist: "Finish twice"))
        try expect(try await backend.load().albums.map(\.title) == ["After"], "a writer finished twice must leave the library working")
    }

    private func damagedLibraryIsLeftUntouched(_ backend: any StorageBackend) async throws {
        guard let damage else {
            print("StorageBackendCompatTest: damagedLibraryIsLeftUntouched skipped: the adapter gave no way to damage its library")
            return
        }
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        try await library.add(AlbumRecord(title: "Soon damaged", artist: "A"))
        let fingerprint = try await damage(backend)
        let before = try fingerprint()
        do {
            _ = try await backend.load()
            throw CompatFailure("load() of a damaged library must throw")
        } catch let error as AlbumKitError {
            try expect(error.kind == .unreadableInput, "load() of a damaged library threw \(error.kind), not unreadableInput: \(error)")
        }
        _ = try? await Library.open(backend, hub: NotificationHub()).add(AlbumRecord(title: "Refused", artist: "A"))
        try expect(try fingerprint() == before, "the damaged library must be left as it was")
    }

    private func pointReadsAgreeWithLoad(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        for album in CompatFixtures.albums(count: 30) { try await library.add(AlbumRecord(id: album.id, title: album.title, artist: album.artist)) }
        try await library.move(.position(30), to: 2)
        try await library.select(.position(5))
        guard let reads = backend.pointReads else { return }
        let whole = try await backend.load()
        try expect(try await reads.state() == whole.state, "point reads give another memento than load()")
        let count = try await reads.count()
        try expect(count == whole.albums.count, "point reads count \(count), load() \(whole.albums.count)")
        try expect(try await reads.albums(in: 0..<whole.albums.count) == whole.albums, "point reads list other albums than load()")
        try expect(try await reads.albums(in: 3..<6) == Array(whole.albums[3..<6]), "a range read differs")
        try expect(try await reads.albums(in: 28..<40) == Array(whole.albums[28...]), "a range past the end must be clamped")
        for (index, album) in whole.albums.enumerated() where index % 7 == 0 {
            try expect(try await reads.index(of: album.id) == index, "index(of:) of \(album.id) is not \(index)")
            try expect(try await reads.contains(album.id), "contains(_:) does not find \(album.id)")
        }
        try expect(try await reads.index(of: "no-such-album") == nil, "index(of:) of a missing id must be nil")
        try expect(try await !reads.contains("no-such-album"), "contains(_:) finds a missing id")
        try await expectDuplicateLookups(backend, in: whole.albums, after: "30 adds")
        // The key ignores case and the white space around each field, in every script.
        try await library.add(AlbumRecord(title: "  Été indien ", artist: "ÖLAF", year: "1999"), at: 4)
        try await library.add(AlbumRecord(title: "été INDIEN", artist: "ölaf", year: "1999"))
        let key = Album.duplicateKey(artist: "Ölaf", title: "ÉTÉ INDIEN", year: "1999")
        try expect(try await reads.firstIndex(ofDuplicateKey: key) == 3, "the first of two albums with one duplicate key must be found, at index 3")
        try await library.remove([.position(4)])
        let last = try await reads.count() - 1
        try expect(try await reads.firstIndex(ofDuplicateKey: key) == last, "once the first is removed, the other (index \(last)) must be found")
    }

    /// A backend opened before another process changed the library (a second backend at the
    /// same location stands for it) reads the change, whatever it kept from earlier reads —
    /// also when the change leaves the count as it was. A library over a backend without point
    /// reads holds its albums, and sees the change once `reloadIfChanged()` reports it.
    private func pointReadsSeeAnotherProcessesChanges(_ backend: any StorageBackend) async throws {
        let albums = CompatFixtures.albums(count: 1200)
        try await backend.create(holding: albums)
        let reader = try await Library.open(backend, hub: NotificationHub())
        try expect(try await reader.album(.position(700)).album == albums[699], "position 700 before the change")
        let other = try await Library.open(try await makeBackend(30), hub: NotificationHub())
        try await other.move(.position(1), to: 1200)
        try await other.update(.position(2), AlbumPatch(title: "Changed elsewhere"))
        try await other.remove([.position(600)])
        try await other.add(AlbumRecord(id: "added-elsewhere", title: "Added elsewhere", artist: "Other"), at: 3)
        let expected = try await other.albums()
        try await expectReads(backend, equal: expected, after: "another process's changes")
        // A library that holds its albums (no point reads) sees others' saves when it reloads.
        let reloaded = try await reader.reloadIfChanged()
        try expect(reloaded, "reloadIfChanged() must notice another process's changes")
        let seen = try await reader.count()
        try expect(seen == expected.count, "the library opened before saw \(seen) albums, not \(expected.count)")
        try expect(try await reader.album(.position(700)).album == expected[699], "position 700 after the change")
        try expect(try await reader.album(.id("added-elsewhere")).position == 3, "an album added elsewhere is found by id")
        try await other.move(.position(3), to: 1)
        if backend.pointReads == nil { try await reader.reloadIfChanged() }
        try expect(try await reader.album(.position(1)).album.title == "Added elsewhere", "a move elsewhere (same count) is seen")
    }

    /// Ranges at the ends of the library and across the places a backend may cut its order
    /// (every 512 albums in a row store), over a library that grew and shrank there.
    private func pointReadsAtTheEdges(_ backend: any StorageBackend) async throws {
        try await backend.create()
        guard let reads = backend.pointReads else { return }
        let emptyCount = try await reads.count()
        let emptyRange = try await reads.albums(in: 0..<5)
        try expect(emptyCount == 0 && emptyRange.isEmpty, "an empty library reads as empty")
        try expect(try await reads.index(of: "fixture-0") == nil, "an empty library holds no id")
        try await backend.withWriter { writer, _ in
            try await writer.save(LibrarySnapshot(albums: CompatFixtures.albums(count: 1600)), change: .replaceAll())
        }
        let library = try await Library.open(backend, hub: NotificationHub())
        try await library.remove((500..<530).map { .position($0) })
        for index in 0..<40 { try await library.add(AlbumRecord(title: "Edge \(index)", artist: "A"), at: 1020 + index) }
        try await library.move(.position(1), to: 1024)
        let whole = try await backend.load().albums
        try await expectReads(backend, equal: whole, after: "changes around the block edges")
        let count = whole.count
        for range in [0..<0, 0..<1, (count - 1)..<count, (count - 1)..<(count + 5), count..<(count + 3), 510..<515, 1020..<1030, 0..<count] {
            try expect(try await reads.albums(in: range) == Array(whole[range.clamped(to: 0..<count)]), "albums(in: \(range)) differs from load()")
        }
    }

    /// Ids in other scripts, with quotes, SQL wildcards and (where the album rules allow it)
    /// inner spaces are stored, found by position and by id, and changed like any other.
    private func unusualIDsFoundByPointReads(_ backend: any StorageBackend) async throws {
        try await backend.create()
        let ids = ["album:東京/事変", "emoji:🎸🇯🇵", "quote:'O'Brien\"", "like:%_%", "semi;colon--", "album:1/custom id", "tab\tid"]
            .filter(AlbumID.isValid)
        let library = try await Library.open(backend, hub: NotificationHub())
        for (index, id) in ids.enumerated() {
            try await library.add(AlbumRecord(id: AlbumID(id), title: "Title \(index)", artist: "Artist"))
        }
        for (index, id) in ids.enumerated() {
            let found = try await library.album(.id(AlbumID(id)))
            try expect(found.position == index + 1 && found.album.id.rawValue == id, "id '\(id)' is at \(found.position), not \(index + 1)")
        }
        try await library.remove([.id(AlbumID(ids[0]))])
        try await library.update(.id(AlbumID(ids[1])), AlbumPatch(title: "Renamed"))
        try await expectReads(backend, equal: try await library.albums(), after: "changes by unusual ids")
        try expect(try await backend.pointReads?.index(of: AlbumID(ids[0])) == nil, "a removed unusual id is gone")
    }

    /// Random adds, removes (one and several), moves, updates, undos and redos through a
    /// library leave the backend holding exactly what a plain array holds.
    private func randomChangesMatchAPlainList(_ backend: any StorageBackend) async throws {
        try await backend.create()
        try await backend.withWriter { writer, _ in
            try await writer.save(LibrarySnapshot(albums: CompatFixtures.albums(count: 1100)), change: .replaceAll())
        }
        let library = try await Library.open(backend, hub: NotificationHub())
        var generator = SystemRandomNumberGenerator()
        var model = try await backend.load().albums
        for step in 0..<150 {
            let count = model.count
            let position = Int.random(in: 1...count, using: &generator)
            switch Int.random(in: 0..<7, using: &generator) {
            case 0:
                let (album, taken) = try await library.add(AlbumRecord(title: "Random \(step)", artist: "A"), at: position)
                try expect(taken == position, "add at \(position) reported position \(taken)")
                model.insert(album, at: position - 1)
            case 1:
                let positions = Set((0..<Int.random(in: 1...4, using: &generator)).map { _ in Int.random(in: 1...count, using: &generator) })
                try await library.remove(positions.map { .position($0) })
                for index in positions.sorted(by: >) { model.remove(at: index - 1) }
            case 2:
                let to = Int.random(in: 1...count, using: &generator)
                try await library.move(.position(position), to: to)
                model.insert(model.remove(at: position - 1), at: to - 1)
            case 3:
                model[position - 1] = try await library.update(.position(position), AlbumPatch(title: "Updated \(step)"))
            default:
                if Bool.random(using: &generator), (await library.historyDepth).undo > 0 {
                    try await library.undo()
                } else if (await library.historyDepth).redo > 0 {
                    try await library.redo()
                }
                model = try await backend.load().albums
            }
            if step % 25 == 0 { try await expectReads(backend, equal: model, after: "\(step + 1) random changes") }
        }
        try await expectReads(backend, equal: model, after: "150 random changes")
        while (await library.historyDepth).undo > 0 { try await library.undo() }
        try await expectReads(backend, equal: CompatFixtures.albums(count: 1100), after: "undoing every random change")
    }

    /// `load(pagesOf:details:lookups:into:)` hands over what `load()` reads: the memento first, then every
    /// album in order in runs of 1 to `size` (none for an empty library).
    private func piecesGiveWhatLoadGives(_ backend: any StorageBackend) async throws {
        try await backend.create()
        try await expectPieces(of: backend, size: 5, after: "creating an empty library")
        try await backend.withWriter { writer, _ in
            try await writer.save(LibrarySnapshot(albums: CompatFixtures.albums(count: 250) + CompatFixtures.wholeAlbums()), change: .replaceAll())
        }
        try await Library.open(backend, hub: NotificationHub()).select(.position(7))
        for size in [1, 7, 252, 1000] { try await expectPieces(of: backend, size: size, after: "250 albums and two whole ones") }
    }

    // MARK: - Helpers

    /// Checks the pieces of `backend` in runs of `size` against `load()`, reading every field
    /// and only some of the details (each album then as `load()` gives it, or with only the
    /// named fields of its details).
    private func expectPieces(of backend: any StorageBackend, size: Int, after what: String) async throws {
        let whole = try await backend.load()
        for details in [Set(AlbumField.all), [], [.label], [.tracks, .fields, .rating]] as [Set<AlbumField>] {
            let gathered = Mutex<[LibraryPiece]>([])
            try await backend.load(pagesOf: size, details: details, lookups: true) { piece in gathered.withLock { $0.append(piece) } }
            let pieces = gathered.withLock { $0 }
            let reading = "after \(what), reading the details \(details.map(\.name).sorted()),"
            guard case .state(let state) = pieces.first else { throw CompatFailure("\(reading) the first piece must be the memento") }
            try expect(state == whole.state, "\(reading) the pieces' memento differs from load()'s")
            var albums: [Album] = []
            for piece in pieces.dropFirst() {
                guard case .albums(let run) = piece else { throw CompatFailure("\(reading) a second memento came among the albums") }
                try expect((1...size).contains(run.count), "\(reading) a run of \(run.count) albums in runs of at most \(size)")
                albums += run
            }
            try expect(albums.count == whole.albums.count, "\(reading) runs of \(size) give \(albums.count) albums, load() \(whole.albums.count)")
            for (read, loaded) in zip(albums, whole.albums) where read != loaded {
                var named = loaded
                named.details = try loaded.detailsJSON.map { try AlbumDetails(json: $0, only: details) } ?? AlbumDetails()
                try expect(read == named, "\(reading) album '\(loaded.id)' differs from load()'s, and from its named fields alone")
            }
        }
    }

    /// Checks that `load()` and, where offered, every point read give `albums`.
    private func expectReads(_ backend: any StorageBackend, equal albums: [Album], after what: String) async throws {
        let loaded = try await backend.load().albums
        try expect(loaded == albums, "after \(what), load() gives \(loaded.count) albums that differ from the \(albums.count) expected")
        guard let reads = backend.pointReads else { return }
        let count = try await reads.count()
        try expect(count == albums.count, "after \(what), point reads count \(count), not \(albums.count)")
        try expect(try await reads.albums(in: 0..<albums.count) == albums, "after \(what), point reads list other albums")
        for index in stride(from: 0, to: albums.count, by: max(1, albums.count / 40)) {
            try expect(try await reads.index(of: albums[index].id) == index, "after \(what), index(of: \(albums[index].id)) is not \(index)")
            try expect(try await reads.albums(in: index..<(index + 1)) == [albums[index]], "after \(what), position \(index + 1) differs")
        }
        try await expectDuplicateLookups(backend, in: albums, after: what)
    }

    /// Checks that the point reads, the backend's and a writer's, find the first album of
    /// each of a sample of `albums`' duplicate keys where a search of the list does, and no
    /// album for a key the library does not hold.
    private func expectDuplicateLookups(_ backend: any StorageBackend, in albums: [Album], after what: String) async throws {
        guard let reads = backend.pointReads else { return }
        let keys = stride(from: 0, to: albums.count, by: max(1, albums.count / 20)).map { albums[$0].duplicateKey }
        let missing = Album.duplicateKey(artist: "Nobody", title: "No such album", year: "")
        for key in keys + [missing] {
            let expected = albums.firstIndex { $0.duplicateKey == key }
            let found = try await reads.firstIndex(ofDuplicateKey: key)
            try expect(found == expected, "after \(what), the first duplicate of \(key.debugDescription) is at \(String(describing: found)), not \(String(describing: expected))")
        }
        let underLock = try await backend.withWriter { writer, _ in try await writer.pointReads?.firstIndex(ofDuplicateKey: keys.last ?? missing) }
        let expected = albums.firstIndex { $0.duplicateKey == (keys.last ?? missing) }
        try expect(underLock == expected, "after \(what), a writer's point reads find the duplicate at \(String(describing: underLock)), not \(String(describing: expected))")
    }

    private func expectStored(_ backend: any StorageBackend, equals expected: LibrarySnapshot, after what: String) async throws {
        let stored = try await backend.load()
        try expect(stored.albums == expected.albums, "after \(what), stored albums \(stored.albums.map(\.title)) ≠ expected \(expected.albums.map(\.title))")
        try expect(stored.state == expected.state, "after \(what), the stored memento differs from the library's:\n  stored \(stored.state)\n  library \(expected.state)")
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw CompatFailure(message()) }
    }
}

extension StorageBackendCompatTest {
    /// A `damage` for a backend that keeps its library in one file: overwrites the file's first
    /// bytes with garbage, and fingerprints the file's bytes.
    public static func damagingFile(_ file: URL) -> @Sendable (any StorageBackend) async throws -> @Sendable () throws -> Data {
        { _ in
            var bytes = try Data(contentsOf: file)
            bytes.replaceSubrange(0..<min(bytes.count, 64), with: Data(repeating: 0xFF, count: min(64, bytes.count)))
            try bytes.write(to: file)
            return { try Data(contentsOf: file) }
        }
    }
}

/// What a failed check says.
public struct CompatFailure: Error, CustomStringConvertible {
    public let description: String
    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}
