import AlbumKitTesting
import Foundation
import Testing
@testable import PostgresStorage

/// End-to-end: the built binary on a `postgres` library, and what it says when it cannot
/// reach or log in to the server.
@Suite(.enabled(if: TestServer.enabled, TestServer.skipNote))
struct PostgresCommandTests {
    static func environment(_ url: String) -> [String: String] {
        ["ALBUMKIT_STORAGE_BACKEND": "postgres", "ALBUMKIT_STORAGE_URL": url]
    }

    private func titles(_ cli: CLIRunner, _ environment: [String: String] = [:]) throws -> [String] {
        let result = try cli.run(["list", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.error)")
        let list = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] ?? [:]
        return (list["albums"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    /// One `error:` line naming `needle`, a failure status, nothing on standard output.
    static func expectOneErrorLine(_ result: CLIRunner.Result, naming needle: String) {
        #expect(result.status != 0)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(result.error)")
        #expect(lines.first?.lowercased().hasPrefix("error:") == true, "\(result.error)")
        #expect(result.error.contains(needle), "\(result.error) does not name \(needle)")
    }

    @Test func twentyConcurrentAddsLeaveTwentyAlbums() async throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let environment = Self.environment(try await TestServer.freshDatabase())
        #expect(try cli.run(["init"], environment: environment).status == 0)
        let running = try (1...20).map { try cli.start(["add", "--title", "Parallel \($0)", "--artist", "Writer"], environment: environment) }
        for process in running {
            let result = try process.wait()
            #expect(result.status == 0, "\(result.error)")
        }
        #expect(Set(try titles(cli, environment)) == Set((1...20).map { "Parallel \($0)" }))
    }

    @Test func migrateFromSQLiteToPostgresAndBack() async throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let url = try await TestServer.freshDatabase()
        let sqlite = ["ALBUMKIT_CONFIG": cli.folder.appendingPathComponent("albumkit.yaml").path]
        try "storage:\n  backend: sqlite\n".write(to: cli.folder.appendingPathComponent("albumkit.yaml"), atomically: true, encoding: .utf8)
        try cli.run(["init", "--starter"], environment: sqlite)
        let before = try titles(cli, sqlite)
        let there = try cli.run(["migrate", "--to", "postgres", "--url", url], environment: sqlite)
        #expect(there.status == 0, "\(there.error)")
        #expect(try String(contentsOf: cli.folder.appendingPathComponent("albumkit.yaml"), encoding: .utf8).contains("backend: postgres"))
        #expect(try titles(cli, sqlite) == before)
        let back = try cli.run(["migrate", "--to", "sqlite", "--path", "again.sqlite"], environment: sqlite)
        #expect(back.status == 0, "\(back.error)")
        #expect(try titles(cli, sqlite) == before)
    }

    @Test func aWrongPasswordIsOneErrorLineNamingTheServer() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let server = try PostgresURL(try #require(TestServer.url))
        let url = "postgres://albumkit_password:wrong@\(server.hostAndPort)/postgres"
        let result = try cli.run(["list"], environment: Self.environment(url))
        Self.expectOneErrorLine(result, naming: server.hostAndPort)
        #expect(!result.error.contains("wrong"), "the password must not be shown")
    }
}

/// What `albumkit` says about a `postgres` library it cannot use; no server is needed, so
/// these run everywhere.
@Suite struct PostgresWithoutServerCommandTests {
    @Test(arguments: ["mysql://albums@127.0.0.1/albums", "postgres://127.0.0.1:5432/albums", "postgres://albums@127.0.0.1:5432/", "postgres://albums@:5432/db"])
    func aBadURLIsOneClearErrorLine(_ url: String) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        PostgresCommandTests.expectOneErrorLine(try cli.run(["list"], environment: PostgresCommandTests.environment(url)), naming: "storage.postgres.url")
    }

    @Test func aStoppedServerIsOneErrorLineNamingHostAndPort() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let url = "postgres://postgres@127.0.0.1:9/albums"  // discard port: nothing listens
        PostgresCommandTests.expectOneErrorLine(try cli.run(["list"], environment: PostgresCommandTests.environment(url)), naming: "127.0.0.1:9")
        PostgresCommandTests.expectOneErrorLine(try cli.run(["add", "--title", "T", "--artist", "A"], environment: PostgresCommandTests.environment(url)), naming: "127.0.0.1:9")
    }
}
