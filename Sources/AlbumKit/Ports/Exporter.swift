import Foundation

/// Writes a library to a file: a backup bundle, a plain album list. `albumkit export PATH`
/// picks the exporter whose file ending `PATH` has (the longest that fits).
///
/// ## Implementation requirements
/// - Write to a temporary name beside `destination` and rename it into place only when the
///   file is complete and synced (``AtomicFile``), so a failed or killed export leaves no
///   partial file under the name asked for.
/// - Read covers and history only through ``ExportContents``; never hold the whole library's
///   cover bytes in memory at once.
/// - Publish `export.progress` on the hub as the work advances (albums, covers and bytes
///   written so far; a reading every megabyte or so is plenty, one per cover is too many), and
///   return the number of bytes written. `export.started` and `export.finished` are the
///   workflow's.
public protocol Exporter: Sendable {
    /// The name `albumkit plugins` lists it under (`bundle`, `json`).
    var name: String { get }
    /// One line for `albumkit plugins`.
    var summary: String { get }
    /// The settings it reads (`plugins.<name>.*`).
    var settings: [SettingDeclaration] { get }
    /// The file endings it writes, with their dot (`.tar.gz`, `.json`).
    var fileEndings: [String] { get }
    /// Writes `contents` to `destination`; returns the bytes written.
    func export(_ contents: ExportContents, to destination: URL, hub: NotificationHub) async throws -> Int64
}

extension Exporter {
    /// No summary.
    public var summary: String { "" }

    /// No settings.
    public var settings: [SettingDeclaration] { [] }
}

/// What an ``Exporter`` writes: the albums and memento, and read access to the stored covers
/// and history steps.
public struct ExportContents: Sendable {
    /// The albums in order and the memento.
    public let snapshot: LibrarySnapshot
    /// Who made the file (`albumkit 0.3.0`), for manifests.
    public let generator: String
    private let store: any CoverStore
    private let readSteps: @Sendable ([Int64]) async throws -> [Int64: HistoryStep]
    /// Whether `state.json` keeps the ids the library gave its steps (a library's own storage).
    public var keepsStepIDs = false

    /// Contents of `snapshot` whose covers are in `store` and whose history steps `steps`
    /// reads.
    public init(
        snapshot: LibrarySnapshot, covers store: any CoverStore,
        steps: @escaping @Sendable ([Int64]) async throws -> [Int64: HistoryStep] = { _ in [:] },
        generator: String = "albumkit \(AlbumKitVersion.current)"
    ) {
        self.snapshot = snapshot
        self.store = store
        self.readSteps = steps
        self.generator = generator
    }

    /// The memento with every step of its history written out: a bundle's `state.json`.
    public func stateFile() async throws -> StateFile {
        let file = try StateFile(snapshot.state, steps: try await readSteps(snapshot.state.stepIDs))
        return keepsStepIDs ? file.keepingIDs(of: snapshot.state) : file
    }

    /// Every stored cover's key.
    public func coverKeys() async throws -> [CoverKey] { try await store.keys() }

    /// The bytes of one stored cover, or nil when it is not stored.
    public func coverBytes(_ key: CoverKey) async throws -> Data? { try await store.data(for: key) }

    /// The bytes of each of `keys`, in order, nil for one not stored (one trip to the store).
    public func coverBytes(_ keys: [CoverKey]) async throws -> [Data?] { try await store.data(for: keys) }
}
