import Foundation
import Logging
import Testing
import PostgresNIO
@testable import PostgresStorage

/// The PostgreSQL server the tests use: `ALBUMKIT_TEST_POSTGRES_URL` names a superuser
/// (`scripts/postgres-server.sh start` prints one). Outside CI the tests skip without it;
/// in CI (`CI=true`) they run and fail, saying it is missing.
enum TestServer {
    static let environment = ProcessInfo.processInfo.environment
    static let url = environment["ALBUMKIT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether the PostgreSQL tests run.
    static let enabled = url != nil || environment["CI"] == "true"

    /// Why they are skipped when they are.
    static let skipNote: Comment = "PostgreSQL tests skipped: set ALBUMKIT_TEST_POSTGRES_URL (scripts/postgres-server.sh start prints it)"

    /// A new, empty database on the server; returns its URL.
    static func freshDatabase() async throws -> String {
        guard let url else { throw TestServerMissing() }
        let admin = try PostgresURL(url)
        let name = "albumkit_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let logger = Logger(label: "albumkit.tests")
        let connection = try await PostgresConnection.connect(configuration: admin.configuration, id: 0, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        let password = admin.password.map { ":\($0)" } ?? ""
        return "postgres://\(admin.user)\(password)@\(admin.hostAndPort)/\(name)"
    }
}

/// Thrown in CI when the server is not configured.
struct TestServerMissing: Error, CustomStringConvertible {
    var description: String { "CI=true but ALBUMKIT_TEST_POSTGRES_URL is not set: .ci/run must start scripts/postgres-server.sh" }
}
