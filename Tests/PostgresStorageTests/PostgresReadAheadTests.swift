@testable import AlbumKit
import AlbumKitTesting
import Foundation
import PostgresStorage
import Testing

/// PostgreSQL's rows come on the tasks' shared threads, where a store must not block; it
/// still reads only a few runs ahead of an export slower than it, read as the export reads (the
/// details as text; the runs that wait are held in memory: BENCHMARKS.md, "Peak
/// memory of `albumkit import` and `export`"), waiting between its statements without holding a thread.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresReadAheadTests {
    @Test func theStoreReadsOnlyAFewRunsAheadOfASlowExport() async throws {
        let storage = ReadsRecorded(try PostgresStorage(url: try await TestServer.freshDatabase()))
        let albums = CompatFixtures.numberedAlbums(count: 2_000)
        try await storage.create(holding: albums)

        var taken = 0
        var ahead: [Int] = []
        var read: [String] = []
        // The export writes on the thread it takes the pieces on; the store's rows come on the
        // other shared threads, and could run ahead while it sleeps were the store not held back.
        try await ExportContents(storage: storage).readWithText(inRunsOf: 10) { piece in
            taken += 1
            if case .albums(let run) = piece { read += run.map(\.album.id.rawValue) }
            // Time enough for the store to read all 200 runs, were it not held back.
            if taken == 2 || taken == 150 {
                Thread.sleep(forTimeInterval: 0.5)
                ahead.append(storage.handed.withLock { $0 } - taken)
            }
        }
        #expect(read == albums.map(\.id.rawValue))
        #expect(storage.reads.withLock { $0.runsWithText } == [10])
        // The bound's pieces, and the one the store may be reading while it is within it.
        #expect(ahead.count == 2 && ahead.allSatisfy { $0 <= 5 }, "pieces read and not taken: \(ahead)")
    }

    /// Two rows sharing a sort key (which the store never writes, but a hand-edited database may
    /// hold) where one of the export's runs ends: the read fails, naming the library, rather
    /// than hand over all but one of them.
    @Test func rowsSharingASortKeyFailTheExportRatherThanLoseAnAlbum() async throws {
        let url = try await TestServer.freshDatabase()
        let storage = try PostgresStorage(url: url)
        let albums = CompatFixtures.numberedAlbums(count: 20)
        try await storage.create(holding: albums)
        let share = "UPDATE albumkit_albums SET sort_key = (SELECT sort_key FROM albumkit_albums WHERE id = 'id-9') WHERE id = 'id-10'"
        #expect(try runProgram("/usr/bin/psql", [url, "-q", "-c", share]).status == 0)

        var read = 0
        var failure: AlbumKitError?
        do {
            try await ExportContents(storage: storage).readWithText(inRunsOf: 10) { piece in
                if case .albums(let run) = piece { read += run.count }
            }
        } catch let error as AlbumKitError {
            failure = error
        }
        let said = failure?.description ?? "no error"
        #expect(said.contains(storage.location) && said.contains("share a sort key"), "\(said)")
        #expect(read == 10, "the run before the check: \(read)")
    }

    /// A listing is not held back by its consumer and reads every album in one statement: the
    /// same two rows where a listing's run of 8 192 ends are both listed.
    @Test func rowsSharingASortKeyAreAllListed() async throws {
        let url = try await TestServer.freshDatabase()
        let storage = try PostgresStorage(url: url)
        let albums = CompatFixtures.numberedAlbums(count: 8_200)
        try await storage.create(holding: albums)
        let share = "UPDATE albumkit_albums SET sort_key = (SELECT sort_key FROM albumkit_albums WHERE id = 'id-8191') WHERE id = 'id-8192'"
        #expect(try runProgram("/usr/bin/psql", [url, "-q", "-c", share]).status == 0)

        let listed = try await Library.open(storage, hub: NotificationHub()).listed()
        #expect(listed.map(\.position) == Array(1...albums.count))
        #expect(Set(listed.map(\.album.id)) == Set(albums.map(\.id)))
    }
}
