import AlbumKitTesting
import Foundation
import Testing

/// `make test` on a fresh clone, where no `ALBUMKIT_TEST_POSTGRES_URL` is set: the PostgreSQL
/// suites run against the project's throwaway server, which it starts for them and stops after.
@Suite struct MakeTestServerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
    static let serverInstalled = FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/15/bin/initdb")

    @Test(.enabled(if: serverInstalled || TestServer.enabled, "PostgreSQL 15 is not installed"))
    func makeTestStartsTheThrowawayServerAndStopsItAfter() throws {
        let folder = try TemporaryFolder("albumkit-make-test")
        defer { folder.remove() }
        // A `swift` that notes the URL the tests would get and what the server there answers,
        // then fails, so that make stops before the browser tests.
        let swift = folder.path("swift")
        try """
            #!/bin/sh
            echo "$ALBUMKIT_TEST_POSTGRES_URL" > '\(folder.path("url").path)'
            psql "$ALBUMKIT_TEST_POSTGRES_URL" -Atc 'SELECT 6 * 7' > '\(folder.path("answer").path)' 2>&1
            exit 3
            """.write(to: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        // A server of this test's own, on a port and in a folder no other run uses; no URL given,
        // and none of an outer make's settings.
        let port = Int.random(in: 55_000..<60_000)
        let environment = [
            "-u", "ALBUMKIT_TEST_POSTGRES_URL", "-u", "MAKEFLAGS", "-u", "MAKELEVEL", "-u", "MFLAGS",
            "ALBUMKIT_PG_PORT=\(port)", "ALBUMKIT_PG_DIR=\(folder.path("postgres").path)",
        ]
        let server = Self.root.appendingPathComponent("scripts/postgres-server.sh").path
        defer { _ = try? runProgram("/usr/bin/env", environment + [server, "stop"]) }

        let make = try runProgram("/usr/bin/env", environment + ["make", "-C", Self.root.path, "test", "SWIFT=\(swift.path)"])
        #expect(make.status != 0, "the tests' failure is make's: \(make.output)")
        let url = try String(contentsOf: folder.path("url"), encoding: .utf8)
        #expect(url == "postgres://postgres@127.0.0.1:\(port)/postgres\n", "make output: \(make.output)")
        #expect(try String(contentsOf: folder.path("answer"), encoding: .utf8) == "42\n")
        let status = try runProgram("/usr/bin/env", environment + [server, "status"])
        #expect(status.status == 3, "the server is stopped after the tests: \(status.output)")
    }
}
