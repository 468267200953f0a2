import AlbumKitTesting
import Foundation
import Testing

/// End-to-end: the built binary on an `sqlite` library, and `migrate` into one.
@Suite struct SQLiteCommandTests {
    private static let sqlite = ["ALBUMKIT_STORAGE_BACKEND": "sqlite"]

    private func titles(_ cli: CLIRunner, environment: [String: String] = [:]) throws -> [String] {
        let result = try cli.run(["list", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.error)")
        let list = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] ?? [:]
        return (list["albums"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test func twentyConcurrentAddsLeaveTwentyAlbums() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run(["init"], environment: Self.sqlite).status == 0)
        let running = try (1...20).map { try cli.start(["add", "--title", "Parallel \($0)", "--artist", "Writer"], environment: Self.sqlite) }
        for process in running {
            let result = try process.wait()
            #expect(result.status == 0, "\(result.error)")
        }
        #expect(Set(try titles(cli, environment: Self.sqlite)) == Set((1...20).map { "Parallel \($0)" }))
    }

    @Test func migrateFromJSONCopiesVerifiesAndCreatesTheConfigFile() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        try cli.run("remove", "2")
        let before = try titles(cli)
        let events = cli.folder.appendingPathComponent("events.jsonl")
        let migrated = try cli.run("migrate", "--to", "sqlite", "--events", events.path)
        #expect(migrated.status == 0, "\(migrated.error)")
        let config = try String(contentsOf: cli.folder.appendingPathComponent("config/albumkit/config.yaml"), encoding: .utf8)
        #expect(config.contains("backend: sqlite"))
        #expect(try titles(cli) == before)
        #expect(FileManager.default.fileExists(atPath: cli.libraryFolder.appendingPathComponent("library.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: cli.libraryFolder.appendingPathComponent("library.json").path), "the old library must stay")
        #expect(try String(contentsOf: events, encoding: .utf8).contains(#""event":"storage.switched""#))
        #expect(try cli.run("undo").status == 0, "the history must come along")
        #expect(try titles(cli).count == before.count + 1)
    }

    @Test func migrateKeepsTheCommentsOfTheConfigFileInEffect() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let file = cli.folder.appendingPathComponent("albumkit.yaml")
        try """
            # my albums
            library: lib   # next to this file
            storage:
              backend: json   # was json
              path: albums.json
            covers:
              concurrency: 2
            """.write(to: file, atomically: true, encoding: .utf8)
        try cli.run("init", "--starter")
        let migrated = try cli.run("migrate", "--to", "sqlite", "--path", "albums.sqlite")
        #expect(migrated.status == 0, "\(migrated.error)")
        let config = try String(contentsOf: file, encoding: .utf8)
        #expect(config == """
            # my albums
            library: lib   # next to this file
            storage:
              backend: sqlite   # was json
              sqlite:
                path: albums.sqlite
            covers:
              concurrency: 2

            """)
        #expect(try titles(cli).count == 5)
    }

    @Test func migrateKilledDuringTheCopyLeavesTheSourceInUseAndIntact() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let albums = (1...20_000).map { ["title": "Album \($0)", "artist": "Artist \($0 % 97)", "year": "19\($0 % 90 + 10)"] }
        let input = cli.folder.appendingPathComponent("big.json")
        try JSONSerialization.data(withJSONObject: albums).write(to: input)
        try cli.run("init")
        #expect(try cli.run("import", input.path).status == 0)
        let library = cli.libraryFolder.appendingPathComponent("library.json")
        let original = try Data(contentsOf: library)
        let config = cli.folder.appendingPathComponent("config/albumkit/config.yaml")
        var killedDuringTheCopy = 0
        for delay in [0.02, 0.05, 0.15, 0.3, 0.6] {
            let running = try cli.start(["migrate", "--to", "sqlite", "--path", "copy-\(delay).sqlite"])
            Thread.sleep(forTimeInterval: delay)
            kill(running.process.processIdentifier, SIGKILL)
            _ = try running.wait()
            #expect(try Data(contentsOf: library) == original, "the source changed (killed after \(delay) s)")
            guard running.process.terminationReason == .uncaughtSignal else {
                // It finished before the kill: a whole migrate switches the configuration, and
                // later rounds would start from the copy, so the rounds end here.
                #expect(running.process.terminationStatus == 0)
                #expect(FileManager.default.fileExists(atPath: config.path), "a finished migrate switches the configuration")
                break
            }
            killedDuringTheCopy += 1
            #expect(try titles(cli).count == 20_000)
            #expect(!FileManager.default.fileExists(atPath: config.path), "a killed migrate switched the configuration (after \(delay) s)")
        }
        #expect(killedDuringTheCopy > 0, "no kill landed during a migrate: the test checked nothing")
    }
}
