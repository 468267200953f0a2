import Foundation
import Synchronization

/// A library kept in one file of ``Format`` (JSON or property list), with its covers in a
/// `covers/` folder and its history steps in a journal folder beside it. Every save rewrites
/// the file atomically; a lock file (`<file>.lock`) keeps a second writer waiting instead of
/// overwriting. What this process last read or wrote is kept while the file is unchanged
/// (same inode, size and modification time), so a change to a large library does not decode
/// the whole file again. A JSON file is read by points (``pointReads``): one album a line, as
/// its writer lays it out, so a command reads the albums it touches and a change copies the
/// others' bytes into the new file.
public struct FileStorage<Format: LibraryFileFormat>: StorageBackend {
    /// The library file.
    public let file: URL
    /// How the file is written.
    public let format: Format
    /// How long a writer waits for another to finish.
    public let lockTimeout: Double
    public let covers: any CoverStore
    let journal: HistoryJournal<Format>
    private let cache = FileSnapshotCache()

    /// A library in `file`, with covers in `coversFolder`.
    public init(file: URL, format: Format, coversFolder: URL, lockTimeout: Double = 30) {
        self.file = file
        self.format = format
        self.lockTimeout = lockTimeout
        self.covers = DirectoryCoverStore(folder: coversFolder)
        self.journal = HistoryJournal(beside: file, format: format)
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
        journal.prune(keeping: [])
        try write(LibrarySnapshot())
    }

    public func load() async throws -> LibrarySnapshot { try read(taking: false).snapshot }

    /// A json file found by its lines is handed over a run at a time as its albums are read
    /// (the fields beyond the core six that `details` does not name left unread), never
    /// whole in memory; another is read whole first.
    public func load(
        pagesOf size: Int, details: Set<AlbumField>, lookups: Bool, into piece: @escaping @Sendable (LibraryPiece) -> Void
    ) async throws {
        let lines: LibraryFileLines
        switch try contents() {
        case .lines(let found): lines = found
        case .whole(let document): return document.snapshot.handOver(inRunsOf: size, to: piece)
        }
        piece(.state(lines.state))
        let run = max(size, 1)
        for start in stride(from: 0, to: lines.count, by: run) {
            guard let albums = lines.albums(in: start..<min(start + run, lines.count), only: details) else {
                // The strict reader refused one: the whole file's reader accepts it or names the problem.
                let albums = try whole(of: lines).snapshot.albums
                for rest in stride(from: start, to: albums.count, by: run) { piece(.albums(Array(albums[rest..<min(rest + run, albums.count)]))) }
                return
            }
            piece(.albums(albums))
        }
    }

    public func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] {
        guard case .whole(let document) = try contents(), !document.carriedSteps.isEmpty else { return try journal.read(ids) }
        return document.carriedSteps.filter { ids.contains($0.key) }
    }

    /// A json library is read by points (``LibraryFileLines``): `show 5` reads one album's line.
    public var pointReads: (any LibraryPointReads)? { format is JSONFormat ? FilePointReads(storage: self) : nil }

    public func beginWrite() async throws -> any StorageWriter {
        guard FileManager.default.fileExists(atPath: file.deletingLastPathComponent().path) else {
            throw AlbumKitError(.libraryState, "no library at \(file.path): run 'albumkit init' first")
        }
        let writer = FileStorageWriter(storage: self, lock: try await FileLock.acquire(lockPath, timeout: lockTimeout))
        sweepLeftovers()
        return writer
    }

    /// Removes what a writer killed mid-save left: temporary library and step files, and cover
    /// staging folders (``LeftoverFiles``: only those no live process holds). The covers folder,
    /// which may hold 100 000 files, is swept by the work that writes covers
    /// (``LeftoverFiles/sweepCovers(of:)``), not by every save.
    private func sweepLeftovers() {
        LeftoverFiles.sweep(file.deletingLastPathComponent())
        LeftoverFiles.sweep(journal.folder)
    }

    /// The file as it is now — remembered when unchanged since this process read or wrote it.
    /// A writer is `taking`: it gets the remembered albums for itself, to change in place.
    fileprivate func read(taking: Bool) throws -> LoadedLibraryDocument {
        let identity = FileIdentity(path: file.path)
        if let identity, let cached = cache.entry(for: identity, taking: taking) { return cached }
        let document: LoadedLibraryDocument
        if format is JSONFormat {
            let text = try readFile { try FileText(contentsOf: file) }
            document = try decoding { try LoadedLibraryDocument(jsonText: text) }
        } else {
            let data = try readFile { try Data(contentsOf: file) }
            document = try decoding { try format.decode(LoadedLibraryDocument.self, from: data) }
        }
        if let identity, !taking { cache.remember(document, as: identity) }
        return document
    }

    /// The file as it is now, for point reads: a json file in the layout this program writes,
    /// found by its lines (``LibraryFileLines``), else read whole — remembered while unchanged.
    fileprivate func contents() throws -> FileContents {
        let identity = FileIdentity(path: file.path)
        if let identity, let cached = cache.contents(for: identity) { return cached }
        if format is JSONFormat {
            let text = try readFile { try FileText(contentsOf: file) }
            if let lines = LibraryFileLines(text) {
                if let identity { cache.remember(lines, as: identity) }
                return .lines(lines)
            }
        }
        return .whole(try read(taking: false))
    }

    /// The file whose lines are `lines`, read whole by `JSONDecoder` from the same text (the
    /// strict reader refused one of its albums): what it accepts, or the problem it names, as
    /// ``load()`` reads such a file. Remembered while the file is unchanged.
    fileprivate func whole(of lines: LibraryFileLines) throws -> LoadedLibraryDocument {
        let document = try decoding { try LoadedLibraryDocument(decoding: lines.text) }
        if let identity = FileIdentity(path: file.path), let linesIdentity = cache.identity(of: lines), identity == linesIdentity {
            cache.remember(document, as: identity)
        }
        return document
    }

    /// The file's bytes as `read` reads them; a missing file is a library not made yet.
    private func readFile<Bytes>(_ read: () throws -> Bytes) throws -> Bytes {
        do {
            return try read()
        } catch {
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw AlbumKitError(.libraryState, "no library at \(file.path): run 'albumkit init' first")
            }
            throw AlbumKitError(.fileSystem, "\(file.path): cannot read: \(error.localizedDescription)")
        }
    }

    /// The document `decode` reads, or the problem it names.
    private func decoding(_ decode: () throws -> LoadedLibraryDocument) throws -> LoadedLibraryDocument {
        do {
            return try decode()
        } catch {
            throw AlbumKitError.unreadable(file.path, "not a readable \(format.name) library (\(error.decodingSummary)); the file was left as it is")
        }
    }

    /// Saves `snapshot`: the new steps first, then the file, then the steps it no longer names
    /// go (a version 1 file's carried steps move into the journal now).
    fileprivate func save(_ snapshot: LibrarySnapshot, change: StoredChange, carried: [Int64: HistoryStep]) throws {
        try save(snapshot.state, change: change, carried: carried) { try write(snapshot, appending: change.appended) }
    }

    /// Saves a change made through point reads, whose memento is `state`: a file found by its
    /// lines is written with the albums the change leaves alone copied as their bytes are
    /// (``SplicedAlbums``), the same bytes a whole write gives; another is read whole, changed
    /// and written whole.
    fileprivate func save(editing change: StoredChange, state: LibraryState) throws {
        switch try contents() {
        case .whole(let document):
            var snapshot = document.snapshot
            try snapshot.apply(LibraryChange(label: "", edits: change.edits))
            snapshot.state = state
            try save(snapshot, change: change, carried: document.carriedSteps)
        case .lines(let lines):
            var albums = SplicedAlbums(lines)
            try albums.apply(change.edits)
            try save(state, change: change, carried: [:]) {
                try AtomicFile.write(to: file) { descriptor in
                    var output = JSONOutput(descriptor: descriptor, path: file.path)
                    try LibraryDocument.writeJSON(to: &output, state: state) { output, first in
                        try albums.write(to: &output, first: &first)
                        var appended = change.appended?.reader()
                        while let album = try appended?.next() { try output.listedAlbum(album, first: &first) }
                    }
                }
            }
        }
    }

    /// Saves the new steps first, then the file (`writeFile`), then the steps `state` no
    /// longer names go.
    private func save(
        _ state: LibraryState, change: StoredChange, carried: [Int64: HistoryStep], writingFile writeFile: () throws -> Void
    ) throws {
        let named = Set(state.stepIDs)
        var added = change.addedSteps
        for (id, step) in carried where named.contains(id) && added[id] == nil { added[id] = step }
        let made = try journal.write(added)
        do {
            try writeFile()
        } catch {
            // The file on disk names none of the steps just made: a failed save (a full disk)
            // leaves none of them behind.
            journal.remove(made)
            throw error
        }
        journal.prune(keeping: named)
    }

    /// Writes `snapshot`'s albums, then `appended`'s. What was written is remembered unless a
    /// run was appended (its albums are not in memory).
    private func write(_ snapshot: LibrarySnapshot, appending appended: AlbumRun? = nil) throws {
        let document = LibraryDocument(snapshot, appending: appended)
        if format is JSONFormat {
            // Piece by piece, straight to the file: no whole-library tree or text in memory.
            try AtomicFile.write(to: file) { descriptor in
                var output = JSONOutput(descriptor: descriptor, path: file.path)
                try document.writeJSON(to: &output)
            }
        } else if let plist = format as? PropertyListFormat, !plist.binary {
            try AtomicFile.write(to: file) { descriptor in
                var output = XMLPropertyListOutput(descriptor: descriptor, path: file.path)
                try document.writeXMLPropertyList(to: &output)
            }
        } else {
            try AtomicFile.write(try format.encode(document), to: file)
        }
        if appended == nil, let identity = FileIdentity(path: file.path) {
            cache.remember(LoadedLibraryDocument(snapshot: snapshot), as: identity)
        }
    }

    private var lockPath: String { file.path + ".lock" }
}

/// The writer session of a ``FileStorage``: holds the lock, rewrites the whole file on save.
private final class FileStorageWriter<Format: LibraryFileFormat>: StorageWriter, @unchecked Sendable {
    let storage: FileStorage<Format>
    let lock: FileLock
    /// The steps a version 1 file carried, until the first save moves them to the journal.
    private var carried: [Int64: HistoryStep] = [:]

    init(storage: FileStorage<Format>, lock: FileLock) {
        self.storage = storage
        self.lock = lock
    }

    func load() async throws -> LibrarySnapshot {
        let document = try storage.read(taking: true)
        carried = document.carriedSteps
        return document.snapshot
    }

    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] {
        carried.isEmpty ? try await storage.steps(ids) : carried.filter { ids.contains($0.key) }
    }

    var pointReads: (any LibraryPointReads)? { storage.pointReads }

    func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws {
        if snapshot.isWhole {
            try storage.save(snapshot, change: change, carried: change.albums == .replaced ? [:] : carried)
        } else {
            try storage.save(editing: change, state: snapshot.state)
        }
        carried = [:]
    }

    func finish() async { lock.release() }
}

/// Which version of a file is on disk: device, inode, size and modification time. An atomic
/// save makes a new file, so a changed identity means what was read of it is stale.
public struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64

    /// The identity of the file at `path`, or nil when there is none.
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity of the open file `descriptor`, or nil when it cannot be read.
    public init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }
}

/// A library file as point reads see it (``FileStorage/contents()``).
private enum FileContents {
    /// A json file in the layout this program writes, its albums found by its lines.
    case lines(LibraryFileLines)
    /// Any other file, read whole.
    case whole(LoadedLibraryDocument)
}

/// The point reads of a ``FileStorage``: a json file found by its lines is read one album at a
/// time, and where one of its albums is refused by the strict reader, the whole file is read
/// as ``FileStorage/load()`` reads it (which accepts it or names the problem as before).
private struct FilePointReads<Format: LibraryFileFormat>: LibraryTextFieldScan {
    let storage: FileStorage<Format>

    /// A file found by its lines reads only the albums whose lines may hold the words
    /// (``LibraryFileLines/mayHold(_:at:)``), on every core; one passed over is not read, so
    /// damage in it goes unseen (``LibraryTextFieldScan``).
    func albums(mayHolding terms: [WordsInTextFields], details: Set<AlbumField>) async throws
        -> (state: LibraryState, count: Int, albums: [(position: Int, album: Album)])?
    {
        guard case .lines(let lines) = try storage.contents(),
            // Refused by the strict reader: the listing of every album reads the whole file.
            let albums = lines.albums(in: 0..<lines.count, only: details, mayHolding: terms)
        else { return nil }
        return (lines.state, lines.count, albums)
    }

    func state() async throws -> LibraryState {
        switch try storage.contents() {
        case .lines(let lines): lines.state
        case .whole(let document): document.snapshot.state
        }
    }

    func count() async throws -> Int {
        switch try storage.contents() {
        case .lines(let lines): lines.count
        case .whole(let document): document.snapshot.albums.count
        }
    }

    func albums(in range: Range<Int>) async throws -> [Album] {
        switch try storage.contents() {
        case .lines(let lines):
            if let albums = lines.albums(in: range.clamped(to: lines.albums.indices)) { return albums }
            let albums = try storage.whole(of: lines).snapshot.albums
            return Array(albums[range.clamped(to: albums.indices)])
        case .whole(let document):
            return Array(document.snapshot.albums[range.clamped(to: document.snapshot.albums.indices)])
        }
    }

    func index(of id: AlbumID) async throws -> Int? {
        switch try storage.contents() {
        case .lines(let lines): lines.ids.firstIndex(of: id)
        case .whole(let document): document.snapshot.index(of: id)
        }
    }

    func firstIndex(ofDuplicateKey key: String) async throws -> Int? {
        let albums: [Album]
        switch try storage.contents() {
        case .lines(let lines):
            switch lines.firstIndex(ofDuplicateKey: key) {
            case .found(let index): return index
            case .none: return nil
            case .refused: albums = try storage.whole(of: lines).snapshot.albums
            }
        case .whole(let document):
            albums = document.snapshot.albums
        }
        return albums.firstIndex { $0.hasDuplicateKey(key) }
    }
}

/// The library file as this process last read or wrote it, by the file's identity.
final class FileSnapshotCache: Sendable {
    private let stored = Mutex<(identity: FileIdentity, document: LoadedLibraryDocument)?>(nil)
    private let lines = Mutex<(identity: FileIdentity, lines: LibraryFileLines)?>(nil)

    /// What point reads make of the file when it is still `identity`: the document read whole
    /// when there is one, else its lines.
    fileprivate func contents(for identity: FileIdentity) -> FileContents? {
        if let document = entry(for: identity, taking: false) { return .whole(document) }
        return lines.withLock { $0?.identity == identity ? $0.map { .lines($0.lines) } : nil }
    }

    /// The identity of the file `found` was read from, while it is remembered.
    fileprivate func identity(of found: LibraryFileLines) -> FileIdentity? {
        lines.withLock { $0?.lines === found ? $0?.identity : nil }
    }

    /// Remembers the lines of the file at `identity`.
    func remember(_ found: LibraryFileLines, as identity: FileIdentity) { lines.withLock { $0 = (identity, found) } }

    /// The remembered document when the file is still `identity`; a taker gets it for itself
    /// (the cache forgets it, so the albums are changed in place, not copied).
    func entry(for identity: FileIdentity, taking: Bool) -> LoadedLibraryDocument? {
        stored.withLock { stored in
            guard let entry = stored, entry.identity == identity else { return nil }
            if taking { stored = nil }
            return entry.document
        }
    }

    /// Remembers `document` as the file at `identity`.
    func remember(_ document: LoadedLibraryDocument, as identity: FileIdentity) { stored.withLock { $0 = (identity, document) } }
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
