import AlbumKit
import AlbumKitTesting
import Foundation
import HTTPCovers
import LoopbackHTTPServer
import Lookups
import Testing

/// `coverartarchive`, `itunes` and `discogs` in `covers.fetchers`: albums that name no cover
/// get one from the services, tried in order, an image that will not do passed over.
@Suite struct LookupCoverFetcherTests {
    /// A JSON library in a temporary folder holding `albums`, its configuration pointing the
    /// lookups at `local` with `fetchers` as the chain (`concurrency` at once, if given).
    private func library(
        _ albums: [Album], local: LocalServices, fetchers: [String], concurrency: Int? = nil
    ) async throws -> (Library, FileStorage<JSONFormat>, TemporaryFolder) {
        let folder = try TemporaryFolder("lookup-covers")
        var configuration = local.configuration()
        configuration.covers.fetchers = fetchers
        if let concurrency { configuration.covers.concurrency = concurrency }
        var registry = AdapterRegistry.builtIn
        registry.register(.httpCovers)
        registry.registerLookups()
        let storage = FileStorage(file: folder.path("library.json"), format: JSONFormat(), coversFolder: folder.path("covers"))
        try await storage.create()
        let library = try await Library.open(storage, hub: NotificationHub(), configuration: configuration, registry: registry)
        _ = try await library.commit(label: "fixture") { _ in (albums.enumerated().map { .insert($0.element, at: $0.offset) }, ()) }
        return (library, storage, folder)
    }

    private func album(_ id: String, _ artist: String, _ title: String, cover: String? = nil) throws -> Album {
        try Album(id: AlbumID(id), title: title, artist: artist, coverUrl: cover)
    }

    @Test func albumsWithoutCoversGetThemFromTheServicesInOrder() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let albums = [
            try album("a1", "Pink Floyd", "The Dark Side of the Moon"),
            try album("discogs:249504", "Rick Astley", "Never Gonna Give You Up"),
            try album("a3", "Pink Floyd", "The Dark Side of the Moon Live at Wembley 1974"),
            try album("a4", "Nobody", "Nothing"),
        ]
        let (library, _, folder) = try await library(albums, local: local, fetchers: ["bundle", "file", "http", "coverartarchive", "itunes", "discogs"])
        defer { folder.remove() }
        let summary = try await library.fetchCovers()
        await local.stop()
        #expect(summary.fetched == 2, "\(summary)")
        let after = try await library.albums()
        let darkSide = try #require(after.first { $0.id.rawValue == "a1" })
        let astley = try #require(after.first { $0.id.rawValue == "discogs:249504" })
        #expect(darkSide.coverUrl == CoverKey(bytes: try await TestImages.make(1200, 1200, "jpg"), fileExtension: "jpg").bundlePath, "the archive's front, matched on MusicBrainz")
        #expect(astley.coverUrl == CoverKey(bytes: try await TestImages.make(600, 600, "jpg"), fileExtension: "jpg").bundlePath, "Discogs' primary image")
        #expect(await library.coverState(of: darkSide) == .stored)
        #expect(darkSide.ids == ["musicbrainz": Answers.release, "musicbrainzGroup": Answers.releaseGroup], "the MusicBrainz match is kept")
        #expect(astley.ids.isEmpty, "no new identity: Discogs was asked by the album's own id")
        let wembley = try #require(after.first { $0.id.rawValue == "a3" })
        #expect(wembley.ids == ["itunes": "1065973699"], "the album iTunes found is kept though its artwork was passed over")
        let failures = Dictionary(uniqueKeysWithValues: summary.failures.map { ($0.album.rawValue, $0.reason) })
        let wembleyAt = "Pink Floyd - The Dark Side of the Moon Live at Wembley 1974"
        #expect(failures["a3"] == "coverartarchive: \(wembleyAt): no match at MusicBrainz (score 90 or more); itunes: \(wembleyAt): 100×100 pixels, smaller than covers.minPixels (300)", "the thumbnail is passed over")
        #expect(failures["a4"] == "coverartarchive: Nobody - Nothing: no match at MusicBrainz (score 90 or more); itunes: Nobody - Nothing: no album of that artist and title in the iTunes Store", "each service says why")
        #expect(after.filter { $0.coverUrl == nil }.map(\.id.rawValue) == ["a3", "a4"])
        try await library.undo()
        #expect(try await library.albums().allSatisfy { $0.coverUrl == nil }, "one step of history takes the found covers back")
    }

    @Test func withoutLookupFetchersInTheChainNothingIsAsked() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let (library, _, folder) = try await library([try album("a1", "Pink Floyd", "The Dark Side of the Moon")], local: local, fetchers: ["bundle", "file", "http"])
        defer { folder.remove() }
        let summary = try await library.fetchCovers()
        await local.stop()
        #expect(summary == CoverFetchSummary())
        #expect(local.server.requests.isEmpty)
    }

    @Test func anAlbumsOwnIdsAndFactsAreWhatIsAsked() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        var known = try album("k1", "Pink Floyd", "The Dark Side of the Moon")
        known.ids = ["musicbrainz": Answers.release]
        var described = try album("k2", "Pink Floyd", "The Dark Side of the Moon")
        described[.label] = "Harvest"
        described[.catalogNumber] = "SHVL 804"
        described[.barcode] = "123"
        let (library, _, folder) = try await library([known, described], local: local, fetchers: ["coverartarchive"])
        defer { folder.remove() }
        let summary = try await library.fetchCovers()
        await local.stop()
        #expect(summary.fetched == 2 && summary.requests["musicbrainz"] == 1, "\(summary)")
        let search = try #require(local.server.requests(to: "/ws/2/release").first?.query["query"])
        #expect(search == #"release:"The Dark Side of the Moon" AND artist:"Pink Floyd" label:"Harvest" catno:"SHVL 804" barcode:"123""#, "the album with an MBID is not searched; the other is searched by its facts")
        #expect(try await library.albums().map(\.ids) == [["musicbrainz": Answers.release], ["musicbrainz": Answers.release, "musicbrainzGroup": Answers.releaseGroup]])
    }

    @Test func aFailingReferenceFallsToTheLookups() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let gone = local.server.url("/gone.jpg")
        let (library, _, folder) = try await library([try album("a1", "Pink Floyd", "The Dark Side of the Moon", cover: gone)], local: local, fetchers: ["http", "coverartarchive"])
        defer { folder.remove() }
        let summary = try await library.fetchCovers()
        await local.stop()
        #expect(summary.fetched == 1 && summary.failures.isEmpty, "\(summary)")
        let album = try #require(try await library.albums().first)
        #expect(album.coverUrl == gone, "the album keeps its reference, which now resolves to the found cover")
        #expect(await library.coverState(of: album) == .stored)
    }

    /// A run's requests share the connections of one client, as many as run at once, and
    /// `covers fetch` closes them when it is done (issue 36: a client a request held a
    /// connection pool each, 1 753 of them alive at the peak of 1 000 covers).
    @Test func aRunSharesItsConnectionsAndClosesThemWhenDone() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        // One release the archive has (a 307, then the image), eleven it answers 404 about.
        let unknown = (1...11).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        let albums = try ([Answers.release] + unknown).map { try album("mb:\($0)", "Artist", "Title \($0)") }
        let (library, _, folder) = try await library(albums, local: local, fetchers: ["coverartarchive"], concurrency: 2)
        defer { folder.remove() }
        let summary = try await library.fetchCovers()
        #expect(summary.fetched == 1 && summary.failures.count == 11, "\(summary)")
        let requests = local.server.requests
        #expect(requests.count == 13)
        #expect(Set(requests.map(\.connection)).count <= 2, "two at a time over at most two connections: \(requests.map { ($0.path, $0.connection) })")
        // The client closes them; the server sees it a moment later.
        let closing = ContinuousClock.now
        while local.server.openConnections > 0, closing.duration(to: .now) < .seconds(30) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(local.server.openConnections == 0, "connections left open after covers fetch")
        await local.stop()
    }
}
