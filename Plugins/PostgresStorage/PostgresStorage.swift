import AlbumKit
import AlbumKitRowStore

/// A library in a PostgreSQL database: the row store (albums one row each ordered by a sort
/// key, history a row per step, covers as `bytea` keyed by SHA-256, the memento as JSON, in
/// tables named `albumkit_…`) on the ``PostgresDriver`` — so a command reads and writes only
/// the rows it touches, and many hosts can share one library.
public struct PostgresStorage: RowStoreBackend {
    /// The store on the database.
    public let store: RowStore<PostgresDriver>

    /// A library at `url` (`postgres://user[:password]@host[:port]/database`); a second
    /// writer waits `lockTimeout` seconds for the first. A malformed URL is an error.
    public init(url: String, lockTimeout: Double = 30) throws {
        store = RowStore(driver: try PostgresDriver(url: url, lockTimeout: lockTimeout))
    }
}

extension StorageBackendFactory {
    /// `postgres`: the library in a PostgreSQL database named by `storage.postgres.url`
    /// (`postgres://user[:password]@host[:port]/database`; `storage.url` is read as it too),
    /// covers inside it.
    public static let postgres = StorageBackendFactory(
        name: "postgres", summary: "a PostgreSQL database (storage.postgres.url) holding albums, covers and history; shareable between hosts",
        settings: [SettingDeclaration("url", .text, "postgres://user[:password]@host[:port]/database")]
    ) { configuration in
        guard let url = configuration.backendSettings("postgres").string("url") else {
            throw AlbumKitError(.configuration, "storage.backend is postgres (from \(configuration.describeOrigin(of: "storage.backend"))) but storage.postgres.url is not set; expected postgres://user[:password]@host[:port]/database")
        }
        return try PostgresStorage(url: url, lockTimeout: configuration.storage.lockTimeoutSeconds)
    }
}

/// Hands its albums' details text to an export unparsed where it is in the writer's form.
extension PostgresStorage: DetailsTextReading {}
