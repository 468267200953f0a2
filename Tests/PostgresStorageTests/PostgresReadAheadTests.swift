@testable import AlbumKit
import AlbumKitTesting
import Foundation
import PostgresStorage
import Testing

/// PostgreSQL's rows come on the tasks' shared threads, where a store must not block; it
/// still reads only a few runs ahead of an export slower than it (the runs that wait are held
/// in memory: BENCHMARKS.md, the peak of an export of 100 000 albums), waiting between its
/// statements without holding a thread.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresReadAheadTests {
    @Test func theStoreReadsOnlyAFewRunsAheadOfASlowExport() async throws {
        let storage = ReadsRecorded(try PostgresStorage(url: try await TestServer.freshDatabase()))
        try await storage.create()
        let albums = (0..<2_000).map { try! Album(id: AlbumID("id-\($0)"), title: "Album \($0)", artist: "A") }
        try await storage.withWriter { writer, _ in try await writer.save(LibrarySnapshot(albums: albums), change: .replaceAll()) }

        var taken = 0
        var ahead: [Int] = []
        var read: [String] = []
        // The consumer waits without holding a thread, so that the store's rows, which come on
        // the shared threads, could run ahead were the store not held back.
        for try await piece in storage.pieces(inRunsOf: 10) {
            taken += 1
            if case .albums(let run) = piece { read += run.map(\.id.rawValue) }
            // Time enough for the store to read all 200 runs, were it not held back.
            if taken == 2 || taken == 150 {
                try await Task.sleep(for: .milliseconds(500))
                ahead.append(storage.handed.withLock { $0 } - taken)
            }
        }
        #expect(read == albums.map(\.id.rawValue))
        // The bound's pieces, and the one the store may be reading while it is within it.
        #expect(ahead.count == 2 && ahead.allSatisfy { $0 <= 5 }, "pieces read and not taken: \(ahead)")
    }
}
