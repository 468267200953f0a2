import AlbumKit
import AlbumKitRowStore
import Foundation

/// A library in one SQLite file: the row store (albums one row each ordered by a sort key,
/// history a row per step, covers as blobs keyed by SHA-256, the memento as JSON) on the
/// ``SQLiteDriver`` — so a command reads and writes only the rows it touches.
public struct SQLiteStorage: RowStoreBackend {
    /// The database file.
    public let file: URL
    /// The store on the file.
    public let store: RowStore<SQLiteDriver>

    /// A library in `file`; a second writer waits `lockTimeout` seconds for the first.
    public init(file: URL, lockTimeout: Double = 30) {
        self.file = file
        store = RowStore(driver: SQLiteDriver(path: file.path, lockTimeout: lockTimeout))
    }
}

extension StorageBackendFactory {
    /// `sqlite`: the library in one SQLite database file (default `library.sqlite` in the
    /// library folder, or `storage.path`), covers inside it.
    public static let sqlite = StorageBackendFactory(
        name: "sqlite", summary: "one SQLite database (library.sqlite, WAL mode) holding albums, covers and history",
        settings: [.libraryFile("library.sqlite")]
    ) { configuration in
        SQLiteStorage(
            file: configuration.resolve(configuration.backendSettings("sqlite").string("path") ?? "library.sqlite"),
            lockTimeout: configuration.storage.lockTimeoutSeconds)
    }
}

/// Hands its albums' details text to an export unparsed where it is in the writer's form.
extension SQLiteStorage: DetailsTextReading {}
