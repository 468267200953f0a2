import AlbumKit
import Foundation
import PostgresNIO

/// A `storage.url` (`postgres://user[:password]@host[:port]/database`) read into connection
/// settings, with a form fit for messages that never shows the password.
struct PostgresURL: Sendable, CustomStringConvertible {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String

    /// Reads `text`; anything else is a configuration error that shows the expected form.
    init(_ text: String) throws {
        let expected = "expected postgres://user[:password]@host[:port]/database"
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? "")
        else { throw AlbumKitError(.configuration, "storage.postgres.url '\(Self.redacted(text))' is not a PostgreSQL URL (\(expected))") }
        guard let host = components.host, !host.isEmpty else {
            throw AlbumKitError(.configuration, "storage.postgres.url '\(Self.redacted(text))' names no host (\(expected))")
        }
        guard let user = components.user, !user.isEmpty else {
            throw AlbumKitError(.configuration, "storage.postgres.url '\(Self.redacted(text))' names no user (\(expected))")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw AlbumKitError(.configuration, "storage.postgres.url '\(Self.redacted(text))' names no database (\(expected))")
        }
        guard components.query == nil, components.fragment == nil else {
            throw AlbumKitError(.configuration, "storage.postgres.url '\(Self.redacted(text))': query parameters are not supported (\(expected))")
        }
        guard let port = components.port ?? 5432 as Int?, (1...65535).contains(port) else {
            throw AlbumKitError(.configuration, "storage.postgres.url '\(Self.redacted(text))' has a bad port (\(expected))")
        }
        self.host = host
        self.port = port
        self.user = user
        self.password = components.password
        self.database = database
    }

    /// `postgres://user@host:port/database`, without the password.
    var description: String { "postgres://\(user)@\(hostAndPort)/\(database)" }

    /// `host:port`, as connection errors name the server.
    var hostAndPort: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The settings postgres-nio connects with (plain TCP: the server is expected on a
    /// trusted network or localhost).
    var configuration: PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    /// `text` with any password replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let scheme = text.range(of: "://"), scheme.upperBound < at,
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
        else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }
}
