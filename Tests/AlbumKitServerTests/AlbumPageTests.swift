import AlbumKit
import Foundation
import Hummingbird
import HummingbirdTesting
import SQLiteStorage
import Synchronization
import Testing

@testable import AlbumKitServer

/// `GET /api/albums` over a real SQLite library whose albums have stored covers, answered by
/// a live server on loopback: a page costs a bounded number of backend calls whatever its size
/// (point reads of its range, one lookup of its covers), `q` and `sort` take the language of
/// `albumkit list`, and a change does not read the library again.
@Suite struct AlbumPageTests {
    /// 300 albums, each with a cover of its own stored in the database, and one without, in
    /// a new library on `storage`; the library behind a counter of every call into the backend.
    static func library(on storage: any StorageBackend) async throws -> (Library, BackendCalls) {
        try await storage.create()
        var records: [AlbumRecord] = []
        for index in 1...300 {
            let key = try await storage.covers.put(Data("cover \(index)".utf8), fileExtension: "png")
            let artist = ["Bowie", "Eno", "Kraftwerk"][index % 3]
            records.append(AlbumRecord(title: "Album \(index)", artist: artist, year: String(1960 + index % 40), coverUrl: "covers/\(key.fileName)"))
        }
        records.append(AlbumRecord(title: "No cover", artist: "Nobody"))
        let calls = BackendCalls()
        let library = try await Library.open(CountingStorage(base: storage, calls: calls), hub: NotificationHub())
        try await library.commit(label: "seed") { snapshot in
            (try records.enumerated().map { index, record in
                .insert(try record.validated(newID: .generate(), label: record.title), at: snapshot.albums.count + index)
            }, ())
        }
        return (library, calls)
    }

    private static func withServer(_ body: @escaping @Sendable (Library, BackendCalls, any TestClientProtocol) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumkit-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (library, calls) = try await library(on: SQLiteStorage(file: folder.appendingPathComponent("library.sqlite")))
        let gateway = LibraryGateway(library: library)
        let router = AlbumServer.router(gateway: gateway, feed: EventFeed(hub: gateway.hub), settings: try ServeSettings())
        try await Application(router: router).test(.live) { client in try await body(library, calls, client) }
    }

    private static func page(_ client: any TestClientProtocol, _ query: String) async throws -> [String: Any] {
        try await client.execute(uri: "/api/albums?\(query)", method: .get) { response in
            #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
            return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        }
    }

    @Test func aPageTakesABoundedNumberOfBackendCallsWhateverItsSize() async throws {
        try await Self.withServer { library, calls, client in
            var used: [Int: Int] = [:]
            for limit in [10, 100, 299] {
                calls.reset()
                let page = try await Self.page(client, "offset=1&limit=\(limit)")
                used[limit] = calls.count
                let albums = try #require(page["albums"] as? [[String: Any]])
                #expect(albums.count == limit)
                #expect(albums.first?["position"] as? Int == 2)
                #expect(albums.allSatisfy { $0["cover"] as? String == "stored" && ($0["coverSha256"] as? String)?.count == 64 })
                #expect(page["total"] as? Int == 301)
            }
            // Count, range, the current album's place, the covers' lookup and the revision
            // before and after (each page is new to the server): the same few calls for 10
            // albums as for 299.
            #expect(used[10] == used[299], "backend calls by page size: \(used)")
            #expect(used[299]! <= 6, "backend calls by page size: \(used)")

            let last = try #require(try await Self.page(client, "offset=300&limit=5")["albums"] as? [[String: Any]])
            #expect(last.map { $0["cover"] as? String } == ["none"])
        }
    }

    /// The same page again at the same revision is the JSON kept from the first time: one
    /// read of the revision, no album read again. A save by another writer (here another
    /// library on the same file, as another process would make it; this server never hears
    /// of it) changes the revision, and the next page shows what it saved.
    @Test func aPageIsReadAndWrittenOncePerRevision() async throws {
        try await Self.withServer { library, calls, client in
            let first = try await Self.page(client, "offset=10&limit=100")
            calls.reset()
            let again = try await Self.page(client, "offset=10&limit=100")
            #expect(calls.count == 1, "the same page at the same revision took \(calls.count) backend calls")
            #expect(NSDictionary(dictionary: again) == NSDictionary(dictionary: first))
            // A page inside the kept one is made of the same albums' JSON.
            calls.reset()
            let inside = try await Self.page(client, "offset=50&limit=10")
            #expect(calls.count == 1, "a page inside a kept one took \(calls.count) backend calls")
            #expect((inside["albums"] as? NSArray) == ((first["albums"] as? NSArray)?.subarray(with: NSRange(location: 40, length: 10)) as NSArray?))

            let other = try await Library.open(SQLiteStorage(file: URL(fileURLWithPath: library.location)), hub: NotificationHub())
            let id = try #require((first["albums"] as? [[String: Any]])?[5]["id"] as? String)
            var patch = AlbumPatch()
            try patch.set("genre", to: "Changed elsewhere")
            try await other.update([AlbumID(id)], patch)
            let changed = try #require(try await Self.page(client, "offset=10&limit=100")["albums"] as? [[String: Any]])
            #expect(changed[5]["id"] as? String == id)
            #expect(changed[5]["genre"] as? String == "Changed elsewhere", "a page showed an album as it was before another writer's save")
        }
    }

    @Test func aChangeDoesNotReadTheLibraryAgain() async throws {
        try await Self.withServer { library, calls, client in
            calls.reset()
            try await client.execute(uri: "/api/albums", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: #"{"title":"Added","artist":"Someone"}"#)) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
            }
            #expect(calls.wholeLoads == 0, "an add loaded the whole library \(calls.wholeLoads) times")
            #expect(calls.count <= 20, "an add took \(calls.count) backend calls")
        }
    }

    @Test func anAlbumNamedByItsIDIsReadWithoutListingTheLibrary() async throws {
        try await Self.withServer { library, calls, client in
            let id = try await library.album(.position(250)).album.id.rawValue
            calls.reset()
            let path = "/api/albums/" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id)
            for method in [HTTPRequest.Method.get, .patch] {
                try await client.execute(uri: path, method: method, headers: [.contentType: "application/json"],
                                         body: ByteBuffer(string: #"{"genre":"Read by id"}"#)) { response in
                    #expect(response.status == .ok, "\(method) \(String(buffer: response.body))")
                }
            }
            #expect(calls.wholeLoads == 0, "reading and changing an album by id listed the whole library \(calls.wholeLoads) times")
        }
    }

    @Test func theQueryAndSortOfListChooseAndOrderThePage() async throws {
        try await Self.withServer { _, _, client in
            let bowie = try await Self.page(client, "q=artist:bowie%20year:1990..1999&sort=year-,title&limit=1000")
            let albums = try #require(bowie["albums"] as? [[String: Any]])
            #expect(!albums.isEmpty)
            #expect(bowie["total"] as? Int == albums.count)
            #expect(albums.allSatisfy { $0["artist"] as? String == "Bowie" && ($0["year"] as? String ?? "").hasPrefix("199") })
            let years = albums.compactMap { $0["year"] as? String }
            #expect(years == years.sorted(by: >))
            // Positions stay the library's: a click on a result makes that album current.
            let first = try #require(albums.first)
            let same = try await Self.page(client, "offset=\((first["position"] as! Int) - 1)&limit=1")
            #expect((same["albums"] as? [[String: Any]])?.first?["id"] as? String == first["id"] as? String)

            // In library order a page of matches is cut as it streams past: the same albums
            // as the matching part of every match.
            let eno = try #require(try await Self.page(client, "q=artist:eno&limit=1000")["albums"] as? [[String: Any]])
            let part = try await Self.page(client, "q=artist:eno&offset=5&limit=7")
            #expect((part["albums"] as? [[String: Any]])?.map { $0["id"] as? String } == eno[5..<12].map { $0["id"] as? String })
            #expect(part["total"] as? Int == eno.count && eno.count == 100)

            let none = try await Self.page(client, "q=cover:none")
            #expect((none["albums"] as? [[String: Any]])?.map { $0["title"] as? String } == ["No cover"])

            for bad in ["q=year:abc", "q=9x:red", "sort=9x", "q=%22unclosed"] {
                try await client.execute(uri: "/api/albums?\(bad)", method: .get) { response in
                    #expect(response.status == .unprocessableContent, "\(bad): \(response.status)")
                }
            }
        }
    }
}

/// How many calls reached the backend: its point reads, its cover store and whole loads.
final class BackendCalls: Sendable {
    private let counts = Mutex((calls: 0, wholeLoads: 0))
    var count: Int { counts.withLock { $0.calls } }
    var wholeLoads: Int { counts.withLock { $0.wholeLoads } }
    func reset() { counts.withLock { $0 = (0, 0) } }
    func called(whole: Bool = false) { counts.withLock { $0.calls += 1; if whole { $0.wholeLoads += 1 } } }
}

/// A backend that counts every call into `base` and hands it on.
struct CountingStorage: StorageBackend {
    let base: any StorageBackend
    let calls: BackendCalls

    var location: String { base.location }
    var covers: any CoverStore { CountingCovers(base: base.covers, calls: calls) }
    /// The base's point reads counted; its text search too when it has one, so queries take
    /// the path they take in `serve`.
    var pointReads: (any LibraryPointReads)? {
        guard let reads = base.pointReads else { return nil }
        let counted = CountingReads(base: reads, calls: calls)
        guard let search = reads as? any LibraryTextSearch else { return counted }
        return CountingSearch(reads: counted, base: search)
    }
    func exists() async throws -> Bool { calls.called(); return try await base.exists() }
    func create() async throws { try await base.create() }
    func load() async throws -> LibrarySnapshot { calls.called(whole: true); return try await base.load() }
    func load(pagesOf size: Int, details: Set<AlbumField>, lookups: Bool, into piece: @escaping @Sendable (LibraryPiece) -> Void) async throws {
        calls.called(whole: true)
        try await base.load(pagesOf: size, details: details, lookups: lookups, into: piece)
    }
    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] { calls.called(); return try await base.steps(ids) }
    func beginWrite() async throws -> any StorageWriter { calls.called(); return try await base.beginWrite() }
}

struct CountingReads: LibraryPointReads {
    let base: any LibraryPointReads
    let calls: BackendCalls

    func state() async throws -> LibraryState { calls.called(); return try await base.state() }
    func count() async throws -> Int { calls.called(); return try await base.count() }
    func albums(in range: Range<Int>) async throws -> [Album] { calls.called(); return try await base.albums(in: range) }
    func index(of id: AlbumID) async throws -> Int? { calls.called(); return try await base.index(of: id) }
    func contains(_ id: AlbumID) async throws -> Bool { calls.called(); return try await base.contains(id) }
    func firstIndex(ofDuplicateKey key: String) async throws -> Int? { calls.called(); return try await base.firstIndex(ofDuplicateKey: key) }
    func revision() async throws -> Int64? { calls.called(); return try await base.revision() }
}

/// A text search that counts every call into `base` (its point reads through `reads`).
struct CountingSearch: LibraryTextSearch {
    let reads: CountingReads
    let base: any LibraryTextSearch

    func state() async throws -> LibraryState { try await reads.state() }
    func count() async throws -> Int { try await reads.count() }
    func albums(in range: Range<Int>) async throws -> [Album] { try await reads.albums(in: range) }
    func index(of id: AlbumID) async throws -> Int? { try await reads.index(of: id) }
    func contains(_ id: AlbumID) async throws -> Bool { try await reads.contains(id) }
    func firstIndex(ofDuplicateKey key: String) async throws -> Int? { try await reads.firstIndex(ofDuplicateKey: key) }
    func revision() async throws -> Int64? { try await reads.revision() }

    func places(holding words: [SearchWord]) async throws -> (generation: Int64, places: [Double]) {
        reads.calls.called()
        return try await base.places(holding: words)
    }
    func matches(holding words: [SearchWord], details: Set<AlbumField>, albums: Bool, where test: SearchedTest)
        async throws -> (generation: Int64, places: [Double], albums: [Album])
    {
        reads.calls.called()
        return try await base.matches(holding: words, details: details, albums: albums, where: test)
    }
    func positionedMatches(
        holding words: [SearchWord], details: Set<AlbumField>, where test: SearchedTest, inRunsOf size: Int,
        _ run: @escaping @Sendable ([(place: Double, album: Album)]) -> Void
    ) async throws -> (generation: Int64, positions: [Int]) {
        reads.calls.called()
        return try await base.positionedMatches(holding: words, details: details, where: test, inRunsOf: size, run)
    }
    func firstMatches(holding words: [SearchWord], details: Set<AlbumField>, count: Int, budget: Int, where keep: @escaping @Sendable (Album) -> Bool)
        async throws -> FirstMatches
    {
        reads.calls.called()
        return try await base.firstMatches(holding: words, details: details, count: count, budget: budget, where: keep)
    }
    func albums(at places: [Double], details: Set<AlbumField>, current: AlbumID?, generation: Int64) async throws -> PlacedAlbums {
        reads.calls.called()
        return try await base.albums(at: places, details: details, current: current, generation: generation)
    }
    func positions(of places: [Double], generation: Int64) async throws -> [Int] {
        reads.calls.called()
        return try await base.positions(of: places, generation: generation)
    }
}

struct CountingCovers: CoverStore {
    let base: any CoverStore
    let calls: BackendCalls

    func put(_ bytes: Data, fileExtension: String) async throws -> CoverKey { calls.called(); return try await base.put(bytes, fileExtension: fileExtension) }
    func data(for key: CoverKey) async throws -> Data? { calls.called(); return try await base.data(for: key) }
    func data(for keys: [CoverKey]) async throws -> [Data?] { calls.called(); return try await base.data(for: keys) }
    func contains(_ key: CoverKey) async throws -> Bool { calls.called(); return try await base.contains(key) }
    func storedKeys(among keys: [CoverKey]) async throws -> Set<CoverKey> { calls.called(); return try await base.storedKeys(among: keys) }
    func keys() async throws -> [CoverKey] { calls.called(); return try await base.keys() }
    func keySet() async throws -> Set<CoverKey> { calls.called(); return try await base.keySet() }
    func remove(_ key: CoverKey) async throws -> Int { calls.called(); return try await base.remove(key) }
    func location(of key: CoverKey) -> String? { base.location(of: key) }
    func insert(_ covers: [(key: CoverKey, bytes: Data)]) async throws -> [CoverKey] { calls.called(); return try await base.insert(covers) }
    func makeDurable() async throws { try await base.makeDurable() }
    var filesFolder: URL? { base.filesFolder }
}
