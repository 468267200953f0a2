import Foundation
import Synchronization

/// One step of `import`: every album read from the inputs passes through the stages named in
/// `import.stages`, in that order (`validate`, `normalize`, `dedupe`, `covers` by default),
/// before the whole batch is committed as one step of history.
///
/// ## Implementation requirements
/// - A stage is made fresh for each import by its factory, so it may keep what it needs
///   across the batch in its own properties (``process(_:)`` is `mutating`).
/// - ``process(_:)`` is called once per album, in input order. It returns
///   ``StageDecision/pass(_:)`` with the item (changed or not), ``StageDecision/drop(reason:)``,
///   ``StageDecision/duplicate(reason:)``, or ``StageDecision/fail(reason:)``; throwing is the same
///   as failing with the error's description. A failure stops a real import with an error
///   naming the album and the stage; a dry run records it and goes on.
/// - A stage writes nothing: the pipeline commits once, after every stage has seen every
///   album, so a failure anywhere leaves the library exactly as it was.
/// - ``begin(_:)`` and ``end(_:)`` run before the first and after the last album; both see the
///   library as it was when the import began (``StageBatch/library``). Either may throw to
///   fail the import. An input that fails to read after the stages began (they see albums as
///   they are read when no input carries covers) ends them all the same; a stage's failure
///   does not: a stage holding something lets it go when it is dropped.
/// - Everything a stage gets is untrusted input: a stage that changes fields must leave them
///   valid (the commit validates again and fails the import naming the album otherwise).
///
/// `AlbumKitTesting.ImportStageCompatTest` checks these promises for a stage.
public protocol ImportStage: Sendable {
    /// The name it is registered under and `import.stages` names it by.
    var name: String { get }
    /// Called once before the first album.
    mutating func begin(_ batch: StageBatch) async throws
    /// Decides what happens to one album.
    mutating func process(_ item: ImportItem) async throws -> StageDecision
    /// Called once after the last album.
    mutating func end(_ batch: StageBatch) async throws
}

extension ImportStage {
    /// Stages that need no preparation do nothing.
    public mutating func begin(_ batch: StageBatch) async throws {}
    /// Stages that keep nothing across the batch do nothing.
    public mutating func end(_ batch: StageBatch) async throws {}
}

/// What a stage decided about one album.
public enum StageDecision: Sendable {
    /// Pass the album on, changed or not.
    case pass(ImportItem)
    /// Leave the album out, saying why.
    case drop(reason: String)
    /// Leave the album out as a duplicate; `reason` names the album it duplicates.
    case duplicate(reason: String)
    /// Fail the import because of this album.
    case fail(reason: String)
}

/// One album on its way through the stages.
public struct ImportItem: Sendable, Hashable {
    /// What the import will do with the album, as `dedupe` decided.
    public enum Disposition: Sendable, Hashable {
        /// Add it as a new album.
        case add
        /// Overwrite the fields of the library's album with this id, keeping its place.
        case replace(AlbumID)
        /// Add it again under a new id although the library holds it (`--on-duplicate keep`).
        case copy
    }

    /// The album's fields as they stand now. `validate` gives it an id when it has none.
    public var record: AlbumRecord {
        // Any change, by any stage, means the fields must be checked again.
        didSet { isChecked = false }
    }
    /// Whether ``record`` is as the field rules leave it (checked, trimmed, canonical) and has
    /// not changed since: the check of a record read from another tool's file, the `validate`
    /// stage and the commit each made the same album of it, three checks that cost a large CSV
    /// import more than reading it (BENCHMARKS.md); the first now stands until a stage changes
    /// the record.
    var isChecked = false
    /// Names the album in messages ("albums.json #3 'Low'"), made when asked for.
    public var label: String { labelled.description }
    /// The album's label as its input gave it.
    public let labelled: AlbumLabel
    /// The input it came from.
    public let input: String
    /// Whether the input gave the album its id (a duplicate of an album without one is found
    /// by artist, title and year instead).
    public let hadID: Bool
    /// The cover bytes the input carried for this album, once the `covers` stage linked them.
    public var cover: CoverPayload?
    /// What the commit does with it.
    public var disposition: Disposition = .add

    /// An album as its input gave it.
    public init(record: AlbumRecord, label: String, input: String) {
        self.init(record: record, labelled: AlbumLabel(label), input: input)
    }

    /// An album as its input gave it, named in messages by `labelled`.
    public init(record: AlbumRecord, labelled: AlbumLabel, input: String) {
        self.init(record: record, labelled: labelled, input: input, hadID: record.id != nil, cover: nil, disposition: .add)
    }

    /// An item as the stages left it (read back from a scratch file).
    init(
        record: AlbumRecord, labelled: AlbumLabel, input: String, hadID: Bool, cover: CoverPayload?, disposition: Disposition,
        isChecked: Bool = false
    ) {
        self.record = record
        self.labelled = labelled
        self.input = input
        self.hadID = hadID
        self.cover = cover
        self.disposition = disposition
        self.isChecked = isChecked
    }

    /// Items are the same when they say the same album the same way (whether its record was
    /// checked already is how the import got there, not what the item says).
    public static func == (left: ImportItem, right: ImportItem) -> Bool {
        left.record == right.record && left.labelled == right.labelled && left.input == right.input && left.hadID == right.hadID
            && left.cover == right.cover && left.disposition == right.disposition
    }

    /// Hashes the record, the label and the input (equal items have them equal).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(record)
        hasher.combine(labelled)
        hasher.combine(input)
    }
}

/// Cover bytes an input carried (checked against their SHA-256 name), stored until the import
/// commits (and taken out again if the album carrying them does not arrive).
public struct CoverPayload: Sendable, Hashable {
    /// Where the bytes wait: a file named as given, or a folder they are in under their key's file name.
    private enum Place: Sendable {
        case file(URL?)
        case folder(URL)
    }

    /// The key the bytes are stored under (their SHA-256 and image type).
    public let key: CoverKey
    private let place: Place

    /// A payload of `key` waiting in `file`.
    public init(key: CoverKey, file: URL?) {
        self.key = key
        place = .file(file)
    }

    /// A payload of `key` waiting in `folder` under `key.fileName`: the URL is made when asked
    /// for (an import of many covers held as many URLs that nobody asked for; BENCHMARKS.md).
    init(key: CoverKey, inFolder folder: URL?) {
        self.key = key
        place = folder.map { .folder($0) } ?? .file(nil)
    }

    /// Where the bytes wait: in `file` (nil: nowhere), or in `folder` under the key's file name.
    var waiting: (file: URL?, folder: URL?) {
        switch place {
        case .file(let file): (file, nil)
        case .folder(let folder): (nil, folder)
        }
    }

    /// The file the bytes are in; nil when the library already stored them, when its cover
    /// store is not a folder of files (a database), or in a dry run (which checks the bytes
    /// and keeps none).
    public var file: URL? {
        switch place {
        case .file(let file): file
        case .folder(let folder): folder.appendingPathComponent(key.fileName)
        }
    }

    /// Payloads are equal when they hold the same key in the same file, however they were made.
    public static func == (lhs: CoverPayload, rhs: CoverPayload) -> Bool { lhs.key == rhs.key && lhs.file == rhs.file }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(file)
    }

    /// The bytes, when they are in a file.
    public func bytes() throws -> Data? { try file.map { try Data(contentsOf: $0) } }
}

/// What a stage sees of the whole import: the library as it was when the import began, the
/// options, the covers the inputs carried, and the hub.
public struct StageBatch: Sendable {
    /// The library when the import began.
    public let library: LibrarySnapshot
    /// How duplicates are handled and whether this is a dry run.
    public let options: ImportOptions
    /// The hub, for stages that report what they do.
    public let hub: NotificationHub
    /// Cover bytes the inputs carried, by the reference albums name them with
    /// (`covers/<sha256>.<ext>`, or a URL a bundle's memento resolved to stored bytes).
    public let carriedCovers: CarriedCovers
    /// Whether the library already stores a cover.
    public let isStored: @Sendable (CoverKey) async -> Bool
    /// How many albums the import read, when it read them all before the stages began: a hint
    /// for a stage that remembers each album to make room for them once (the stages see at
    /// most that many then). 0 when the count is not known before the albums arrive (the stages
    /// see each album as it is read: inputs that carry no covers, ``AlbumSource/carriesCovers``);
    /// never a bound then: the stages may see any number of albums.
    public let albumCount: Int
    private let notes: BatchNotes

    /// A batch over `library` (tests and outside pipelines).
    public init(
        library: LibrarySnapshot, options: ImportOptions, hub: NotificationHub,
        carriedCovers: CarriedCovers = [:], isStored: @escaping @Sendable (CoverKey) async -> Bool = { _ in false },
        albumCount: Int = 0
    ) {
        self.library = library
        self.options = options
        self.hub = hub
        self.carriedCovers = carriedCovers
        self.isStored = isStored
        self.albumCount = albumCount
        self.notes = BatchNotes()
    }

    /// Notes a problem that does not stop the import; the import reports it when it ends.
    public func warn(_ message: String) { notes.state.withLock { $0.warnings.append(message) } }

    /// The warnings noted so far, in order.
    public var notedWarnings: [String] { notes.state.withLock { $0.warnings } }

    /// Keeps what a lookup service answered (under ``LookupAnswer``'s keys): the import
    /// remembers it in the library with its albums, in the same save (SPEC 11), so a later
    /// `enrich` or `covers fetch` does not ask again. A later answer under a key wins.
    public func remember(_ answers: [String: LookupAnswer]) {
        notes.state.withLock { $0.lookups.merge(answers) { _, new in new } }
    }

    /// The lookup answers kept so far.
    public var rememberedAnswers: [String: LookupAnswer] { notes.state.withLock { $0.lookups } }

    /// Counts requests a stage sent to services (by service), for the import's `Requests:` line.
    public func countRequests(_ counts: [String: Int]) {
        notes.state.withLock { $0.requests.merge(counts, uniquingKeysWith: +) }
    }

    /// The requests counted so far, by service.
    public var countedRequests: [String: Int] { notes.state.withLock { $0.requests } }
}

/// What stages noted, shared by every copy of one ``StageBatch``.
private final class BatchNotes: Sendable {
    struct State {
        var warnings: [String] = []
        var lookups: [String: LookupAnswer] = [:]
        var requests: [String: Int] = [:]
    }

    let state = Mutex(State())
}

/// What a stage factory builds a stage from.
public struct StageContext: Sendable {
    /// The effective configuration.
    public var configuration: Configuration
    /// The stage's own settings (`plugins.<name>.*`).
    public var settings: PluginSettings

    /// A context of `configuration` and `settings`.
    public init(configuration: Configuration, settings: PluginSettings = PluginSettings()) {
        self.configuration = configuration
        self.settings = settings
    }
}

/// Makes a fresh stage for each import; registered under its name.
public typealias ImportStageFactory = AdapterFactory<StageContext, any ImportStage>
