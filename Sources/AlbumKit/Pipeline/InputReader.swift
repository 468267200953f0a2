import Foundation

/// Reads inputs through the album sources that recognise them — the part `import` and
/// `restore` share: gathers each album as an ``ImportItem``, checks each cover the input
/// carries against its SHA-256 name (unless its source did: ``CoverCheckingSource``) and stages it, keeps the memento a bundle carries, and
/// publishes the progress of its workflow (`import.progress`, `restore.progress`).
struct InputReader {
    /// What the inputs held.
    struct Contents {
        /// The albums read, in input order, in a scratch file until the stages take them.
        var items: Spilled<ImportItem>
        /// The `state.json` of the last input that carried one.
        var state: StateFile?
        var warnings: [String]
        /// Carried cover bytes by the reference albums name them with.
        var covers: CarriedCovers
        var coversRead: Int
        /// The records of other tools' files that could not be albums, skipped, each with the
        /// number of albums read before it (where it stands in the plan).
        var skipped: [SkippedRecord]
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

    /// What the inputs held besides their albums, gathered as they are read.
    private struct Gathered {
        var state: StateFile?
        var warnings: [String] = []
        var covers = CarriedCovers()
        var coversRead = 0
        var skipped: [SkippedRecord] = []
        /// The albums read so far.
        var items: Spilled<ImportItem>.Writer
    }

    /// Reads `inputs` in order, staging their covers in `staging` (nil: check them only, as a
    /// dry run does). Errors name the input.
    func read(_ inputs: [URL], staging: inout CoverStaging?) async throws -> Contents {
        var contents = Gathered(items: try Spilled.Writer(in: configuration.libraryDirectory))
        for input in inputs { try await read(input, into: &contents, staging: &staging) }
        return Contents(
            items: try contents.items.finish(), state: contents.state, warnings: contents.warnings, covers: contents.covers,
            coversRead: contents.coversRead, skipped: contents.skipped)
    }

    private func read(_ input: URL, into contents: inout Gathered, staging: inout CoverStaging?) async throws {
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
                    try skip(item.record, label: label, reason: error.description, input: inputPath, into: &contents)
                    continue
                }
                try contents.items.append(item)
            case .album(let record, let label):
                try contents.items.append(ImportItem(record: record, labelled: label, input: inputPath))
            case .invalid(let record, let label, let reason):
                guard othersFile else { throw AlbumKitError(.invalidAlbum, "\(label): \(reason)") }
                try skip(record, label: label, reason: reason, input: inputPath, into: &contents)
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
                hub.publish(progress(inputPath, contents.items.count, read, total))
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
    private func skip(_ record: AlbumRecord, label: AlbumLabel, reason: String, input: String, into contents: inout Gathered) throws {
        let item = ImportItem(record: record, labelled: label, input: input)
        let sentence = reason.contains(item.label) ? reason : "\(item.label): \(reason)"
        guard !strict else {
            throw AlbumKitError(.invalidAlbum, "\(sentence) (--strict: nothing imported; without it the record is skipped)")
        }
        contents.warnings.append("\(sentence): skipped, not an album")
        contents.skipped.append(SkippedRecord(entry: ImportPlan.Entry(.invalid, item, reason: reason), albumsBefore: contents.items.count))
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
