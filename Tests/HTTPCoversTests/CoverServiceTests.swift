import AlbumKit
import Foundation
import HTTPCovers
import Synchronization
import Testing

/// The cover service over the real fetcher chain, against the in-process server.
@Suite(.serialized) struct CoverServiceTests {
    /// A JSON library in a temporary folder, a hub recording events, and the fetch chain.
    struct Fixture {
        let folder: URL
        /// The backend, which the checks read directly (the library itself hides it).
        let storage: FileStorage<JSONFormat>
        let library: Library
        let events: EventRecorder
        let subscription: HubSubscription
        var covers = Configuration(environment: [:]).covers

        static func make(albums: [(String, String?)]) async throws -> Fixture {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("covers-\(UUID().uuidString)")
            let storage = FileStorage(file: folder.appendingPathComponent("library.json"), format: JSONFormat(), coversFolder: folder.appendingPathComponent("covers"))
            try await storage.create()
            let hub = NotificationHub()
            let library = try await Library.open(storage, hub: hub)
            let albumsToAdd = albums.map { AlbumRecord(title: $0.0, artist: "Tester", coverUrl: $0.1) }
            _ = try await library.commit(label: "fixture") { snapshot in
                (albumsToAdd.enumerated().map { .insert(try! $0.element.validated(newID: .generate(), label: "fixture"), at: $0.offset) }, ())
            }
            let events = EventRecorder()
            return Fixture(folder: folder, storage: storage, library: library, events: events, subscription: hub.subscribe { events.record($0) })
        }

        /// Fetches every album's cover through `fetchers` (default: bundle, file, http).
        func fetchAll(fileRoots: [String] = [], timeout: Double = 30, maxBytes: Int = 1_000_000) async throws -> CoverFetchSummary {
            var covers = covers
            covers.fileRoots = fileRoots
            covers.timeoutSeconds = timeout
            covers.maxBytes = maxBytes
            let fetchers: [any CoverFetcher] = [
                BundleCoverFetcher(store: storage.covers), FileCoverFetcher(roots: fileRoots),
                HTTPCoverFetcher(covers: covers, userAgent: "albumkit/\(AlbumKitVersion.current)"),
            ]
            let service = CoverService(library: library, fetchers: fetchers, covers: covers)
            for album in try await library.albums() { service.request(album.id, reference: album.coverUrl!) }
            return try await service.finish()
        }

        func state(_ position: Int) async throws -> CoverState {
            await library.coverState(of: (try await library.albums())[position - 1])
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func goodPNGAndJPEGAreStoredByHashWithOurUserAgent() async throws {
        let server = try await TestCoverServer.start()
        let fixture = try await Fixture.make(albums: [("P", server.url("/good.png")), ("J", server.url("/good.jpg")), ("R", server.url("/to-good"))])
        defer { fixture.remove() }
        let summary = try await fixture.fetchAll()
        await server.stop()
        #expect(summary.fetched == 3 && summary.failures.isEmpty, "\(summary.failures)")
        for position in 1...3 { #expect(try await fixture.state(position) == .stored) }
        let key = try #require(await fixture.library.storedCover(of: (try await fixture.library.albums())[1]))
        #expect(key.fileExtension == "jpg")
        #expect(try await fixture.storage.covers.data(for: key) == Data(TestCoverServer.jpeg))
        #expect(server.userAgents == ["albumkit/\(AlbumKitVersion.current)"])
        let reloaded = try await fixture.storage.load()
        #expect(reloaded.state.covers[server.url("/good.png")]?.key?.fileExtension == "png", "the mapping is saved with the library")
    }

    @Test func slowServerTimesOutAtTheConfiguredValue() async throws {
        let server = try await TestCoverServer.start()
        let fixture = try await Fixture.make(albums: [("Slow", server.url("/slow"))])
        defer { fixture.remove() }
        let summary = try await fixture.fetchAll(timeout: 1)
        await server.stop()
        // The answer comes after 4 seconds: in time for the default 15, so only a fetcher
        // that honours the configured 1 second fails here.
        #expect(summary.fetched == 0)
        #expect(summary.failures.first?.reason.contains("timed out after 1 seconds (covers.timeoutSeconds)") == true, "\(summary.failures)")
        #expect(try await fixture.state(1) == .failed)
    }

    @Test func serverErrorIsRetriedButNotFoundIsNot() async throws {
        let server = try await TestCoverServer.start()
        let fixture = try await Fixture.make(albums: [("Flaky", server.url("/flaky")), ("Gone", server.url("/gone"))])
        defer { fixture.remove() }
        let summary = try await fixture.fetchAll()
        await server.stop()
        #expect(summary.fetched == 1)
        #expect(server.requests(to: "/flaky") == 2)
        #expect(server.requests(to: "/gone") == 1, "a 404 is not retried")
        #expect(summary.failures.map(\.reason).first?.contains("404") == true)
    }

    @Test(arguments: [
        ("/endless", "maxBytes"), ("/html-as-png", "not a JPEG, PNG, GIF or WebP"), ("/loop", "redirect loop"),
        ("/to-metadata", "169.254.169.254"),
    ])
    func hostileAnswersFail(_ path: String, _ reason: String) async throws {
        let server = try await TestCoverServer.start()
        let fixture = try await Fixture.make(albums: [("Hostile", server.url(path))])
        defer { fixture.remove() }
        let summary = try await fixture.fetchAll()
        await server.stop()
        #expect(summary.failures.first?.reason.contains(reason) == true, "\(summary.failures)")
        #expect(try await fixture.state(1) == .failed)
        #expect(try await fixture.storage.covers.keys().isEmpty, "nothing is stored")
    }

    @Test func fiftyAlbumsWithOneURLMakeOneRequest() async throws {
        let server = try await TestCoverServer.start()
        let fixture = try await Fixture.make(albums: (0..<50).map { ("Same \($0)", server.url("/shared.png")) })
        defer { fixture.remove() }
        let summary = try await fixture.fetchAll()
        #expect(server.requests(to: "/shared.png") == 1)
        #expect(summary.fetched == 1 && summary.cached == 49)
        for position in 1...50 { #expect(try await fixture.state(position) == .stored) }
        let again = try await fixture.fetchAll()
        await server.stop()
        #expect(server.totalRequests == 1, "the cache-hit path makes no request at all")
        #expect(again.fetched == 0 && again.cached == 50)
    }

    @Test func fileCoversAreReadOnlyUnderTheRoots() async throws {
        let roots = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: roots.appendingPathComponent("inside"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: roots) }
        let inside = roots.appendingPathComponent("inside/cover.png")
        try Data(TestCoverServer.png).write(to: inside)
        let outside = roots.appendingPathComponent("outside.png")
        try Data(TestCoverServer.png).write(to: outside)
        let escape = roots.appendingPathComponent("inside/escape.png")
        try FileManager.default.createSymbolicLink(at: escape, withDestinationURL: outside)
        let fixture = try await Fixture.make(albums: [("In", inside.absoluteString), ("Out", outside.absoluteString), ("Link", escape.absoluteString), ("Passwd", "file:///etc/passwd")])
        defer { fixture.remove() }
        let summary = try await fixture.fetchAll(fileRoots: [roots.appendingPathComponent("inside").path])
        #expect(summary.fetched == 1)
        #expect(try await fixture.state(1) == .stored)
        for position in 2...4 { #expect(try await fixture.state(position) == .failed) }
        #expect(summary.failures.allSatisfy { $0.reason.contains("covers.fileRoots") }, "\(summary.failures)")
    }

    /// A cover named in the covers folder that the store lacks stays missing after its fetch
    /// fails (SPEC 3), and has no failure to tell, though the memento records one; in either
    /// spelling of its name (the stored form, and capitals kept as text). A cover of another
    /// kind whose fetch failed is failed, with its reason.
    @Test func aCoverInTheCoversFolderIsMissingWithoutAFailureAfterAFailedFetch() async throws {
        let digest = CoverKey(bytes: Data(TestCoverServer.png), fileExtension: "png").sha256
        let carried = "covers/\(digest).png", capitals = "covers/\(digest.uppercased()).png", outside = "file:///nowhere/albumkit-cover.png"
        let fixture = try await Fixture.make(albums: [("Carried", carried), ("Capitals", capitals), ("Outside", outside)])
        defer { fixture.remove() }
        let summary = try await fixture.fetchAll()
        #expect(summary.failures.count == 3, "\(summary.failures)")
        let recorded = try await fixture.storage.load().state.covers
        #expect([carried, capitals, outside].allSatisfy { recorded[$0]?.failure != nil }, "\(recorded)")

        var states: [CoverState] = [], failures: [String?] = []
        for album in try await fixture.library.albums() {
            states.append(await fixture.library.coverState(of: album))
            failures.append(await fixture.library.coverFailure(of: album))
        }
        #expect(states == [.missing, .missing, .failed])
        #expect(failures == [nil, nil, recorded[outside]?.failure])
        let page = try await fixture.library.page(offset: 0, limit: 10)
        #expect(page.albums.map(\.listed.cover) == [.missing, .missing, .failed])
        #expect(page.albums.map(\.coverFailure) == [nil, nil, recorded[outside]?.failure])
    }

    /// The service takes `cover.requested` only: while it runs (`import --fetch-covers`), an
    /// import is not told that its `library.albumAdded` is wanted (and reads nothing back for it).
    @Test func theServiceTakesOnlyCoverRequests() async throws {
        let fixture = try await Fixture.make(albums: [])
        defer { fixture.remove() }
        fixture.subscription.cancel()
        let subscription = CoverService(library: fixture.library, fetchers: [], covers: fixture.covers).attach()
        defer { subscription.cancel() }
        #expect(fixture.library.hub.takes("cover.requested"))
        #expect(!fixture.library.hub.takes("library.albumAdded"))
    }

    @Test func eventsComeRequestedThenFetched() async throws {
        let server = try await TestCoverServer.start()
        let fixture = try await Fixture.make(albums: [])
        defer { fixture.remove() }
        var covers = fixture.covers
        covers.timeoutSeconds = 30
        let service = CoverService(
            library: fixture.library, fetchers: [HTTPCoverFetcher(covers: covers, userAgent: "albumkit/test")], covers: covers)
        let subscription = service.attach()
        try await fixture.library.add(AlbumRecord(title: "Added", artist: "Now", coverUrl: server.url("/added.png")))
        try await service.finish()
        subscription.cancel()
        await server.stop()
        #expect(fixture.events.names == [
            "library.albumAdded", "cover.requested", "library.saved", "cover.fetched", "library.saved",
        ])
    }
}

/// Records event names from a hub subscriber.
final class EventRecorder: Sendable {
    private let events = Mutex<[LibraryEvent]>([])
    func record(_ event: LibraryEvent) { events.withLock { $0.append(event) } }
    var names: [String] { events.withLock { $0.map(\.name) } }
}
