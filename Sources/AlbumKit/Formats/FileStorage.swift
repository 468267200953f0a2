import Foundation

/// A library kept in one file of ``Format`` (JSON or property list), with its covers in a
/// `covers/` folder beside it. Every save rewrites the file atomically; a lock file
/// (`<file>.lock`) keeps a second writer waiting instead of overwriting.
public struct FileStorage<Format: LibraryFileFormat>: StorageBackend {
    /// The library file.
    public let file: URL
    /// How the file is written.
    public let format: Format
    /// How long a writer waits for another to finish.
    public let lockTimeout: Double
    public let covers: any CoverStore

    /// A library in `file`, with covers in `coversFolder`.
    public init(file: URL, format: Format, coversFolder: URL, lockTimeout: Double = 30) {
        self.file = file
        self.format = format
        self.lockTimeout = lockTimeout
        self.covers = DirectoryCoverStore(folder: coversFolder)
    }

    public var location: String { file.path }

    public func exists() async throws -> Bool { FileManager.default.fileExists(atPath: file.path) }

    public func create() async throws {
        try AtomicFile.makeFolder(file.deletingLastPathComponent())
        let lock = try await FileLock.acquire(lockPath, timeout: lockTimeout)
        defer { lock.release() }
        guard !FileManager.default.fileExists(atPath: file.path) else {
            throw AlbumKitError(.libraryState, "a library already exists at \(file.path); it was left as it is")
        }
        try write(LibrarySnapshot())
    }

    public func load() async throws -> LibrarySnapshot {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw AlbumKitError(.libraryState, "no library at \(file.path): run 'albumkit init' first")
            }
            throw AlbumKitError(.fileSystem, "\(file.path): cannot read: \(error.localizedDescription)")
        }
        let document: LibraryDocument
        do {
            document = try format.decode(LibraryDocument.self, from: data)
        } catch {
            throw AlbumKitError.unreadable(file.path, "not a readable \(format.name) library (\(error.decodingSummary)); the file was left as it is")
        }
        guard document.format == LibraryDocument.formatName, document.version == LibraryDocument.currentVersion else {
            throw AlbumKitError.unreadable(file.path, "format '\(document.format)' version \(document.version) is not supported; the file was left as it is")
        }
        return document.snapshot
    }

    public func beginWrite() async throws -> any StorageWriter {
        guard FileManager.default.fileExists(atPath: file.deletingLastPathComponent().path) else {
            throw AlbumKitError(.libraryState, "no library at \(file.path): run 'albumkit init' first")
        }
        return FileStorageWriter(storage: self, lock: try await FileLock.acquire(lockPath, timeout: lockTimeout))
    }

    fileprivate func write(_ snapshot: LibrarySnapshot) throws {
        let document = LibraryDocument(snapshot)
        // JSON is written piece by piece: no whole-library tree in memory.
        let data = format is JSONFormat ? try document.streamedJSON() : try format.encode(document)
        try AtomicFile.write(data, to: file)
    }

    private var lockPath: String { file.path + ".lock" }
}

/// The writer session of a ``FileStorage``: holds the lock, rewrites the whole file on save.
private final class FileStorageWriter<Format: LibraryFileFormat>: StorageWriter {
    let storage: FileStorage<Format>
    let lock: FileLock

    init(storage: FileStorage<Format>, lock: FileLock) {
        self.storage = storage
        self.lock = lock
    }

    func load() async throws -> LibrarySnapshot { try await storage.load() }
    func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws { try storage.write(snapshot) }
    func finish() async { lock.release() }
}

extension StorageBackendFactory {
    /// `json`: the library in one JSON file (`storage.json.path`, default `library.json`).
    public static let json = fileStorage(JSONFormat(), summary: "one JSON file (library.json) and a covers/ folder")

    /// `plist`: the library in one property list (`storage.plist.path`, default
    /// `library.plist`), XML or binary as `storage.plist.format` says.
    public static let plist = StorageBackendFactory(
        name: "plist", summary: "one property list (library.plist, xml or binary) and a covers/ folder",
        settings: [
            .libraryFile("library.plist"),
            SettingDeclaration("format", .choice(["xml", "binary"]), default: .text("xml"), "how the property list is written"),
        ]
    ) { configuration in
        makeFileStorage(PropertyListFormat(binary: configuration.backendSettings("plist").string("format") == "binary"), configuration)
    }

    private static func fileStorage<Format: LibraryFileFormat>(_ format: Format, summary: String) -> Self {
        Self(name: format.name, summary: summary, settings: [.libraryFile(format.defaultFileName)]) { makeFileStorage(format, $0) }
    }

    private static func makeFileStorage<Format: LibraryFileFormat>(
        _ format: Format, _ configuration: Configuration
    ) -> FileStorage<Format> {
        FileStorage(
            file: configuration.resolve(configuration.backendSettings(format.name).string("path") ?? format.defaultFileName), format: format,
            coversFolder: configuration.resolve("covers"), lockTimeout: configuration.storage.lockTimeoutSeconds)
    }
}

extension SettingDeclaration {
    /// `path`: a file backend's library file, relative to the library folder.
    public static func libraryFile(_ defaultName: String) -> SettingDeclaration {
        SettingDeclaration("path", .text, default: .text(defaultName), "the library file, relative to the library folder")
    }
}
