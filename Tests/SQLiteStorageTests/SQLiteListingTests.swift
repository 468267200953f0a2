import AlbumKit
import AlbumKitTesting
import Foundation
import SQLiteStorage
import Synchronization
import Testing

/// A listing of a database is judged and handed over a run at a time as the rows are read:
/// across several runs every album comes once, in order, with its own cover state, and the
/// memento read with them (the current album) is the one the library keeps.
@Suite struct SQLiteListingTests {
    @Test func aListingOverManyRunsKeepsOrderAndCoverStates() async throws {
        let folder = try TemporaryFolder("sqlite-listing")
        defer { folder.remove() }
        let storage = SQLiteStorage(file: folder.path("library.sqlite"))
        try await storage.create()
        let stored = try await storage.covers.put(Data([0x89, 0x50, 0x4E, 0x47, 2]), fileExtension: "png")
        let absent = CoverKey(sha256: String(repeating: "f", count: 64), fileExtension: "jpg")
        let count = 20_011
        let albums = (0..<count).map { index in
            try! Album(id: AlbumID("id-\(index)"), title: "Album \(index)", artist: "A", coverUrl: [stored.bundlePath, absent.bundlePath, nil][index % 3])
        }
        try await storage.withWriter { writer, _ in try await writer.save(LibrarySnapshot(albums: albums), change: .replaceAll()) }
        try await Library.open(storage, hub: NotificationHub()).select(.position(12_345))

        let library = try await Library.open(storage, hub: NotificationHub())
        var runs = 0
        var listed: [ListedAlbum] = []
        for try await run in library.listedPages() {
            runs += 1
            listed += run
        }
        #expect(runs > 1, "a listing of \(count) albums came in one run")
        #expect(listed.map(\.position) == Array(1...count))
        #expect(listed.map(\.album) == albums)
        #expect(listed.map(\.cover) == (0..<count).map { [CoverState.stored, .missing, .none][$0 % 3] })
        #expect(await library.memento.current == "id-12344")
        let missing = try await library.listed(matching: AlbumQuery(terms: ["cover:missing"]))
        #expect(missing.map(\.position) == Array(stride(from: 2, through: count, by: 3)))
    }

    /// Runs are handed over as the rows are read, not after: with row 15 000 damaged, the
    /// first run of 8 192 albums has been handed over before the read stops at it.
    @Test func runsAreHandedOverBeforeTheReadEnds() async throws {
        let folder = try TemporaryFolder("sqlite-runs")
        defer { folder.remove() }
        let file = folder.path("library.sqlite")
        let storage = SQLiteStorage(file: file)
        try await storage.create()
        let albums = (0..<20_000).map { try! Album(id: AlbumID("id-\(String(format: "%05d", $0))"), title: "Album \($0)", artist: "A") }
        try await storage.withWriter { writer, _ in try await writer.save(LibrarySnapshot(albums: albums), change: .replaceAll()) }
        let damage = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE albumkit_albums SET year = 'abcde' WHERE id = 'id-15000'\"); c.commit(); c.close()"
        let python = try Process.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", damage, file.path])
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)

        let runs = Mutex<[Int]>([])
        await #expect(throws: AlbumKitError.self) {
            try await SQLiteStorage(file: file).load(pagesOf: 8192) { piece in
                if case .albums(let run) = piece { runs.withLock { $0.append(run.count) } }
            }
        }
        #expect(runs.withLock { $0 } == [8192], "the runs before the damaged row")
    }
}
