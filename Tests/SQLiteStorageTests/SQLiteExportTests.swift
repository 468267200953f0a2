import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import SQLiteStorage
import Testing

/// An export of a database reads its albums a run at a time into a spooled `albums.json`:
/// across several runs the bundle holds every album once, in order, with the memento read
/// with them, and a read that fails half-way leaves neither the bundle nor the spool.
@Suite struct SQLiteExportTests {
    private static let sqlite = ["ALBUMKIT_STORAGE_BACKEND": "sqlite"]

    /// A library of `count` albums (`id-00000`, …) in `cli`'s library folder, with the
    /// album at `current` (1-based) selected; returns the library file.
    private func library(of count: Int, in cli: CLIRunner, current: Int) async throws -> URL {
        try FileManager.default.createDirectory(at: cli.libraryFolder, withIntermediateDirectories: true)
        let file = cli.libraryFolder.appendingPathComponent("library.sqlite")
        let storage = SQLiteStorage(file: file)
        let albums = CompatFixtures.numberedAlbums(count: count, paddedIDs: true)
        try await storage.create(holding: albums)
        try await Library.open(storage, hub: NotificationHub()).select(.position(current))
        return file
    }

    @Test func anExportOverManyRunsHoldsEveryAlbumInOrder() async throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let count = 10_001
        _ = try await library(of: count, in: cli, current: 9_000)
        let out = try TemporaryFolder("sqlite-export")
        defer { out.remove() }
        let bundle = out.path("library.tar")

        let export = try cli.run(["export", bundle.path], environment: Self.sqlite)
        #expect(export.status == 0, "\(export.error)")
        #expect(export.output.contains("\(count) albums"), "\(export.output)")
        let script = """
            import hashlib, json, sys, tarfile
            t = tarfile.open(sys.argv[1])
            read = lambda name: t.extractfile(name).read()
            albums = json.loads(read("albums.json"))
            sums = dict(reversed(line.split("  ")) for line in read("checksums.sha256").decode().splitlines())
            print(len(albums), json.loads(read("manifest.json"))["albumCount"], json.loads(read("state.json"))["current"],
                  all(a["id"] == "id-%05d" % i and a["title"] == "Album %d" % i for i, a in enumerate(albums)),
                  sums["albums.json"] == hashlib.sha256(read("albums.json")).hexdigest())
            """
        let result = try runProgram("/usr/bin/env", ["python3", "-c", script, bundle.path])
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(count) \(count) id-08999 True True", "\(result.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.url.path) == ["library.tar"], "the spool was left behind")
    }

    /// The export of a library read by points asks its store for runs with the details as text
    /// (``DetailsTextReading``), never for the whole library at once (what it would hold in memory).
    @Test func anExportAsksTheStoreForRunsNeverForTheWholeLibrary() async throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = try await library(of: 10_001, in: cli, current: 5)
        let storage = ReadsRecorded(SQLiteStorage(file: file))
        var registry = AdapterRegistry.builtIn
        registry.register(BundleExporter())
        let library = try await Library.open(storage, hub: NotificationHub(), registry: registry)
        let out = try TemporaryFolder("sqlite-export-runs")
        defer { out.remove() }

        let report = try await library.export(to: out.path("library.tar"))
        #expect(report.albums == 10_001)
        let (whole, runs, runsWithText) = storage.reads.withLock { ($0.whole, $0.runs, $0.runsWithText) }
        #expect(whole == 0, "the export loaded the whole library")
        #expect(runs.isEmpty, "the export parsed the details: \(runs)")
        #expect(runsWithText.count == 1 && runsWithText.allSatisfy { $0 > 0 && $0 < 10_001 }, "runs asked for: \(runsWithText)")
    }

    /// The store reads only a few runs ahead of an export slower than it, read as the export
    /// reads (the details as text): the runs that wait are held in memory (BENCHMARKS.md, "Peak
    /// memory of `albumkit import` and `export`").
    @Test func theStoreReadsOnlyAFewRunsAheadOfASlowExport() async throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = try await library(of: 2_000, in: cli, current: 1)
        let storage = ReadsRecorded(SQLiteStorage(file: file))
        var taken = 0
        var ahead: [Int] = []
        var albums = 0
        try await ExportContents(storage: storage).readWithText(inRunsOf: 10) { piece in
            taken += 1
            if case .albums(let run) = piece { albums += run.count }
            // Time enough for the store to read all 200 runs, were it not held back.
            if taken == 2 || taken == 150 {
                Thread.sleep(forTimeInterval: 0.3)
                ahead.append(storage.handed.withLock { $0 } - taken)
            }
        }
        #expect(albums == 2_000)
        #expect(storage.reads.withLock { $0.runsWithText } == [10])
        // The bound's pieces, and the one the store holds while it waits.
        #expect(ahead.count == 2 && ahead.allSatisfy { $0 <= 5 }, "pieces read and not taken: \(ahead)")
    }

    /// Two rows sharing a sort key (which the store never writes, but a hand-edited database may
    /// hold) where one of the export's runs ends: the export fails, naming the library, rather
    /// than write a bundle without one of them.
    @Test func rowsSharingASortKeyFailTheExportRatherThanLoseAnAlbum() async throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        // More albums than one of the export's runs (512), the 512th and 513th sharing a key.
        let file = try await library(of: 600, in: cli, current: 1)
        let share = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("UPDATE albumkit_albums SET sort_key = (SELECT sort_key FROM albumkit_albums WHERE id = 'id-00511') WHERE id = 'id-00512'")
            c.commit()
            """
        #expect(try runProgram("/usr/bin/env", ["python3", "-c", share, file.path]).status == 0)
        let out = try TemporaryFolder("sqlite-export-shared-key")
        defer { out.remove() }

        let export = try cli.run(["export", out.path("library.tar").path], environment: Self.sqlite)
        #expect(export.status != 0, "\(export.output)")
        #expect(export.error.contains(file.path) && export.error.contains("share a sort key"), "\(export.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.url.path) == [], "the export left files behind")
    }

    @Test func aReadThatFailsHalfWayLeavesNoBundleAndNoSpool() async throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = try await library(of: 10_000, in: cli, current: 1)
        let damage = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE albumkit_albums SET year = 'abcde' WHERE id = 'id-09000'\"); c.commit(); c.close()"
        #expect(try runProgram("/usr/bin/env", ["python3", "-c", damage, file.path]).status == 0)
        let out = try TemporaryFolder("sqlite-export-damaged")
        defer { out.remove() }

        let export = try cli.run(["export", out.path("library.tar.gz").path], environment: Self.sqlite)
        #expect(export.status != 0)
        #expect(export.error.contains("year"), "\(export.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.url.path) == [], "the export left files behind")
    }
}
