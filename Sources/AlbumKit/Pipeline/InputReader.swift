import Foundation

/// Reads inputs through the album sources that recognise them — the part `import` and
/// `restore` share: gathers each album as an ``ImportItem``, checks each cover the input
/// carries against its SHA-256 name (unless its source did: ``CoverCheckingSource``) and stages it, keeps the memento a bundle carries, and
/// publishes the progress of its workflow (`import.progress`, `restore.progress`).
struct InputReader {
    /// What the inputs held besides their albums, gathered as they are read.
    struct Contents {
        /// The `state.json` of the last input that carried one.
        var state: StateFile?
        var warnings: [String] = []
        /// Carried cover bytes by the reference albums name them with.
        var covers = CarriedCovers()
        var coversRead = 0
        /// The records of other tools' files that could not be albums, skipped, each with the
        /// number of albums read before it (where it stands in the plan).
        var skipped: [SkippedRecord] = []
    }

    /// A record skipped as not an album, and how many albums the inputs gave before it.
    struct SkippedRecord {
        var entry: ImportPlan.Entry
        var albumsBefore: Int
    }

    let registry: AdapterRegistry
    let configuration: Configuration
    let hub: NotificationHub
    /// Read every input with this source (`import --format`), not the one that recognises it.
    var forcedSource: String?
    /// The event that tells how far reading has got: each workflow publishes its own (SPEC 6).
    var progress: @Sendable (_ input: String, _ albums: Int, _ bytesRead: Int64, _ totalBytes: Int64?) -> LibraryEvent = LibraryEvent.importProgress
    /// Refuse an input with a record that cannot be an album, instead of skipping the record
    /// (`import --strict`).
    var strict = false

    /// Reads `inputs` in order, staging their covers in `staging` (nil: check them only, as a
    /// dry run does); the albums, in input order, go to a scratch file. Errors name the input.
    func read(_ inputs: [URL], staging: inout CoverStaging?) async throws -> (items: Spilled<ImportItem>, contents: Contents) {
        var items = try Spilled<ImportItem>.Writer(in: configuration.libraryDirectory)
        let contents = try await read(inputs, staging: &staging, albums: &items)
        return (try items.finish(), contents)
    }

    /// Reads `inputs` in order as ``read(_:staging:)`` does, handing each album to `albums` as it
    /// is read (the stages, for inputs that carry no covers).
    func read(_ inputs: [URL], staging: inout CoverStaging?, albums: inout some ReadAlbums) async throws -> Contents {
        var contents = Contents()
        for input in inputs { try await read(input, into: &contents, albums: &albums, staging: &staging) }
        return contents
    }

    private func read(_ input: URL, into contents: inout Contents, albums: inout some ReadAlbums, staging: inout CoverStaging?) async throws {
        let described = try SourceInput(at: input)
        let source = try source(for: described)
        var carried = CarriedCovers()
        var state: StateFile?
        let items = ReadAhead(source.items(from: described, context: Self.context(for: source, configuration)))
        defer { items.cancel() }
        // One string for every album of the input (`URL.path` makes a new one each time).
        let inputPath = input.path
        let checksCovers = source.checksCoverNames
        let othersFile = source.readsOtherToolsFiles
        while let item = try await items.next() {
            switch item {
            case .album(let record, let label) where othersFile:
                // Checked here, to skip what cannot be an album; kept as checked, so that
                // neither `validate` nor the commit checks it again unless a stage changes it.
                var item = ImportItem(record: record.repairingControlCharacters(), labelled: label, input: inputPath)
                do {
                    try item.check(givingID: false)
                } catch {
                    try skip(item.record, label: label, reason: error.description, input: inputPath, albumsBefore: albums.count, into: &contents)
                    continue
                }
                try await albums.take(item)
            case .album(let record, let label):
                try await albums.take(ImportItem(record: record, labelled: label, input: inputPath))
            case .invalid(let record, let label, let reason):
                guard othersFile else { throw AlbumKitError(.invalidAlbum, "\(label): \(reason)") }
                try skip(record, label: label, reason: reason, input: inputPath, albumsBefore: albums.count, into: &contents)
            case .cover(let path, _) where !source.carriesCovers:
                throw AlbumKitError(.unreadableInput, "\(input.path) entry \(path): the source '\(source.name)' says its inputs carry no covers, yet it gave one")
            case .cover(let path, let bytes):
                let key = try checkedKey(bytes, path: path, input: input, hashed: checksCovers)
                // Bytes an earlier input carried are staged already (one input never carries a
                // cover's own path twice: an archive's second entry of a name is refused).
                let folder = if let known = contents.covers.folder(carrying: key) {
                    known
                } else {
                    try await staging?.stage(bytes, key: key)
                }
                carried.add(key, path: path, inFolder: folder)
                contents.coversRead += 1
            case .state(let carriedState):
                state = carriedState
            case .warning(let message):
                contents.warnings.append(message)
            case .progress(let read, let total):
                hub.publish(progress(inputPath, albums.count, read, total))
            }
        }
        // A URL the input's memento resolved to bytes it carries links to those bytes too, so
        // an album keeps its cover whatever reference it was fetched from.
        for (reference, resolution) in state?.covers ?? [:] {
            if let key = resolution.key, let payload = carried[key.bundlePath] { carried[reference] = payload }
        }
        contents.covers.merge(carried)
        if let state { contents.state = state }
    }

    /// Skips a record of another tool's file that cannot be an album, noting it for the summary
    /// and the plan; with `--strict`, refuses the input instead.
    private func skip(
        _ record: AlbumRecord, label: AlbumLabel, reason: String, input: String, albumsBefore: Int, into contents: inout Contents
    ) throws {
        let item = ImportItem(record: record, labelled: label, input: input)
        let sentence = reason.contains(item.label) ? reason : "\(item.label): \(reason)"
        guard !strict else {
            throw AlbumKitError(.invalidAlbum, "\(sentence) (--strict: nothing imported; without it the record is skipped)")
        }
        contents.warnings.append("\(sentence): skipped, not an album")
        contents.skipped.append(SkippedRecord(entry: ImportPlan.Entry(.invalid, item, reason: reason), albumsBefore: albumsBefore))
    }

    /// What `source` reads with under `configuration`: the limits, `covers.fileRoots`, and
    /// its own settings.
    static func context(for source: any AlbumSource, _ configuration: Configuration) -> SourceContext {
        SourceContext(
            limits: configuration.limits, fileRoots: FileRoots(configuration.covers.fileRoots),
            settings: configuration.settings(for: source.name))
    }

    /// The source that reads `input`: the forced one, else the one that recognises it best.
    func source(for input: SourceInput) throws -> any AlbumSource {
        if let forcedSource {
            guard let source = registry.source(named: forcedSource) else {
                throw AlbumKitError(.unsupported, "--format \(forcedSource): no such album source (registered: \(registry.albumSources.map(\.name).joined(separator: ", ")))")
            }
            return source
        }
        guard let source = registry.source(for: input) else {
            let names = registry.albumSources.map(\.name).joined(separator: ", ")
            throw AlbumKitError(.unsupported, "\(input.path): no album source reads this input (registered: \(names)); name one with --format")
        }
        return source
    }

    /// The key of a carried cover, whose name must be the SHA-256 of its bytes; `hashed` when
    /// its source checked that already (a ``CoverCheckingSource``).
    private func checkedKey(_ bytes: Data, path: String, input: URL, hashed: Bool) throws -> CoverKey {
        guard let named = CoverKey(fileName: path) else {
            throw AlbumKitError.unreadable("\(input.path) entry \(path)", "a cover must be named covers/<sha256>.<ext>")
        }
        if hashed { return named }
        let actual = CoverKey(bytes: bytes, fileExtension: named.fileExtension)
        guard actual == named else {
            throw AlbumKitError.unreadable("\(input.path) entry \(path)", "the cover's bytes hash to \(actual.sha256), not to its name")
        }
        return actual
    }
}

/// Where an input's albums go as they are read, in input order: a scratch file
/// (``Spilled/Writer``), or straight into the stages (``StageRun``).
protocol ReadAlbums {
    /// How many albums it took.
    var count: Int { get }
    /// Takes the next album.
    mutating func take(_ item: ImportItem) async throws
}

extension Spilled.Writer: ReadAlbums where Element == ImportItem {
    mutating func take(_ item: ImportItem) throws { try append(item) }
}
