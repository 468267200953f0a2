import Foundation
import Synchronization

/// Writes a library to a file: a backup bundle, a plain album list. `albumkit export PATH`
/// picks the exporter whose file ending `PATH` has (the longest that fits).
///
/// ## Implementation requirements
/// - Write to a temporary name beside `destination` and rename it into place only when the
///   file is complete and synced (``AtomicFile``), so a failed or killed export leaves no
///   partial file under the name asked for.
/// - Read covers and history only through ``ExportContents``; never hold the whole library's
///   cover bytes in memory at once. Where the format allows, read the albums a run at a time
///   (``ExportContents/read(inRunsOf:into:)``) rather than whole (``ExportContents/snapshot()``).
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
    /// Whether it writes the fields ``ExportContents/fields`` names (`export --fields`), rather
    /// than every field of every album.
    var choosesFields: Bool { get }
    /// Writes `contents` to `destination`; returns the bytes written.
    func export(_ contents: ExportContents, to destination: URL, hub: NotificationHub) async throws -> Int64
}

extension Exporter {
    /// No summary.
    public var summary: String { "" }

    /// No settings.
    public var settings: [SettingDeclaration] { [] }

    /// Every field.
    public var choosesFields: Bool { false }
}

/// What an ``Exporter`` writes: the albums and memento, read as the exporter asks (a run at a
/// time, so that an export of a database does not hold every album at once), and read access to
/// the stored covers and history steps.
public struct ExportContents: Sendable {
    /// Who made the file (`albumkit 0.3.0`), for manifests.
    public let generator: String
    private let library: Source
    private let store: any CoverStore
    private let readSteps: @Sendable ([Int64]) async throws -> [Int64: HistoryStep]
    /// Whether `state.json` keeps the ids the library gave its steps (a library's own storage).
    public var keepsStepIDs = false
    /// How many albums the last read handed over (what the export reports it wrote).
    let albumsRead = AlbumTally()
    /// The fields asked for, by name (`export --fields title,year`), for an exporter that
    /// ``Exporter/choosesFields``; nil for its default.
    public var fields: [String]?

    /// Where the albums and memento come from.
    private enum Source: Sendable {
        /// Held in memory, and then the albums of a run read in order.
        case snapshot(LibrarySnapshot, appending: AlbumRun?)
        /// Read from the store each time they are asked for.
        case storage(any StorageBackend)
    }

    /// Contents of `snapshot` — its albums, then `appended`'s when given (a library's own storage
    /// writing itself whole after an import: ``StoredChange/Albums/appending(_:after:)``) —
    /// whose covers are in `store` and whose history steps `steps` reads.
    public init(
        snapshot: LibrarySnapshot, appending appended: AlbumRun? = nil, covers store: any CoverStore,
        steps: @escaping @Sendable ([Int64]) async throws -> [Int64: HistoryStep] = { _ in [:] },
        generator: String = "albumkit \(AlbumKitVersion.current)"
    ) {
        self.init(.snapshot(snapshot, appending: appended), covers: store, steps: steps, generator: generator)
    }

    /// The library in `storage`, read from it when the exporter asks (one committed state per
    /// read), with its covers and history steps.
    public init(storage: any StorageBackend, generator: String = "albumkit \(AlbumKitVersion.current)") {
        self.init(.storage(storage), covers: storage.covers, steps: { try await storage.steps($0) }, generator: generator)
    }

    private init(
        _ library: Source, covers store: any CoverStore,
        steps: @escaping @Sendable ([Int64]) async throws -> [Int64: HistoryStep], generator: String
    ) {
        self.library = library
        self.store = store
        self.readSteps = steps
        self.generator = generator
    }

    /// Hands `piece` the memento, then every album in library order a run of at most `size`
    /// at a time, all from one committed state. A database reads on while `piece` works (the
    /// runs it is ahead wait in memory, so `piece` should keep up: write, do not wait).
    public func read(inRunsOf size: Int, into piece: (LibraryPiece) throws -> Void) async throws {
        var handed = 0
        func hand(_ read: LibraryPiece) throws {
            if case .albums(let albums) = read { handed += albums.count }
            try piece(read)
        }
        switch library {
        case .snapshot(let snapshot, let appended):
            try snapshot.handOver(inRunsOf: size, to: hand)
            var reader = appended?.reader()
            while let run = try reader?.next(upTo: size), !run.isEmpty { try hand(.albums(run)) }
        case .storage(let storage):
            for try await read in storage.pieces(inRunsOf: size, lookups: true) { try hand(read) }
        }
        albumsRead.set(handed)
    }

    /// What ``read(inRunsOf:into:)`` hands over, each album's details as their stored text
    /// where the store keeps them as text in the writer's form (``DetailsTextReading``), for an
    /// exporter that writes them as that writer does (a bundle's `albums.json`).
    package func readWithText(inRunsOf size: Int, into piece: (PieceWithText) throws -> Void) async throws {
        guard case .storage(let storage as any DetailsTextReading) = library else {
            return try await read(inRunsOf: size) { read in
                switch read {
                case .state(let state): try piece(.state(state))
                case .albums(let albums): try piece(.albums(albums.map { AlbumWithText($0) }))
                }
            }
        }
        var handed = 0
        for try await read in LibraryPieces<PieceWithText>(ahead: LibraryPieces<PieceWithText>.ahead, { try await storage.loadWithText(pagesOf: size, into: $0) }) {
            if case .albums(let albums) = read { handed += albums.count }
            try piece(read)
        }
        albumsRead.set(handed)
    }

    /// How many albums ``snapshot()`` asks the store for at a time.
    private static let collectingRun = 8192

    /// The albums and memento whole, for an exporter that needs them all at once.
    public func snapshot() async throws -> LibrarySnapshot {
        if case .snapshot(let snapshot, nil) = library {
            albumsRead.set(snapshot.albums.count)
            return snapshot
        }
        var snapshot = LibrarySnapshot()
        try await read(inRunsOf: Self.collectingRun) { piece in
            switch piece {
            case .state(let state): snapshot.state = state
            case .albums(let albums): snapshot.albums += albums
            }
        }
        return snapshot
    }

    /// `state` (the memento a read handed over) with every step of its history written out: a
    /// bundle's `state.json`.
    public func stateFile(of state: LibraryState) async throws -> StateFile {
        let file = try StateFile(state, steps: try await readSteps(state.stepIDs))
        return keepsStepIDs ? file.keepingIDs(of: state) : file
    }

    /// Every stored cover's key.
    public func coverKeys() async throws -> [CoverKey] { try await store.keys() }

    /// Every stored cover's key, in the order the store reads them fastest
    /// (``CoverKeysInStoredOrder``), with their places there for ``coverBytes(_:at:)``, for an
    /// exporter that writes every cover in any order (a bundle); else as ``coverKeys()`` lists
    /// them, with no places.
    package func coverKeysInStoredOrder() async throws -> (keys: [CoverKey], places: [Int64]?) {
        guard let store = store as? any CoverKeysInStoredOrder else { return (try await coverKeys(), nil) }
        return try await store.keysInStoredOrder()
    }

    /// The bytes of each of `keys`, in order, nil for one not stored, read by the `places`
    /// ``coverKeysInStoredOrder()`` gave them (one trip to the store).
    package func coverBytes(_ keys: [CoverKey], at places: [Int64]) async throws -> [Data?] {
        guard let store = store as? any CoverKeysInStoredOrder else { return try await coverBytes(keys) }
        return try await store.data(for: keys, at: places)
    }

    /// The bytes of one stored cover, or nil when it is not stored.
    public func coverBytes(_ key: CoverKey) async throws -> Data? { try await store.data(for: key) }

    /// The bytes of each of `keys`, in order, nil for one not stored (one trip to the store).
    public func coverBytes(_ keys: [CoverKey]) async throws -> [Data?] { try await store.data(for: keys) }
}

/// A count that an export's reads set and its workflow reads afterwards.
final class AlbumTally: Sendable {
    private let value = Mutex(0)

    /// The count last set.
    var count: Int { value.withLock { $0 } }

    /// Replaces the count.
    func set(_ count: Int) { value.withLock { $0 = count } }
}
