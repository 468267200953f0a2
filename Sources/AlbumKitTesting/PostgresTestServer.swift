import Foundation

/// The PostgreSQL server tests use: `ALBUMKIT_TEST_POSTGRES_URL` names a superuser
/// (`scripts/postgres-server.sh start` prints one). Outside CI, tests that need it skip with a
/// printed reason; in CI (`CI=true`) its absence is an error.
public enum PostgresTestServer {
    /// The superuser URL, if configured.
    public static let url = ProcessInfo.processInfo.environment["ALBUMKIT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether tests that need the server run.
    public static let enabled = url != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    /// Why they are skipped when they are.
    public static let skipReason = "PostgreSQL tests skipped: set ALBUMKIT_TEST_POSTGRES_URL (scripts/postgres-server.sh start prints it)"

    /// A new, empty database on the server (made with `psql`); returns its URL.
    public static func freshDatabase() throws -> String {
        guard let url else { throw TestServerMissing() }
        let name = "albumkit_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let result = try runProgram("/usr/bin/psql", [url, "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"])
        guard result.status == 0 else { throw TestServerMissing(detail: result.output) }
        guard let slash = url.lastIndex(of: "/") else { throw TestServerMissing(detail: "no database in \(url)") }
        return String(url[..<slash]) + "/" + name
    }
}

/// The server is not configured (or refused to make a database).
public struct TestServerMissing: Error, CustomStringConvertible {
    let detail: String?
    init(detail: String? = nil) { self.detail = detail }
    public var description: String {
        detail ?? "ALBUMKIT_TEST_POSTGRES_URL is not set: .ci/run must start scripts/postgres-server.sh"
    }
}
