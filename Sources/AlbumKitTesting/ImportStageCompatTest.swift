import AlbumKit
import Foundation

/// The conformance check a stage author runs: every promise of ``ImportStage``'s
/// "Implementation requirements" that can be checked from outside.
///
/// ```swift
/// @Test func myStageConforms() async throws {
///     try await ImportStageCompatTest(.myStage).run()
/// }
/// ```
/// It checks that the stage carries its factory's name; that each stage the factory makes
/// starts fresh (two stages given the same batch decide the same); that it decides once for
/// every album and leaves every album it passes valid, with its label and input; that
/// `begin` and `end` can be called around a batch; that it takes a batch's `albumCount` of 0
/// as not known, not as a bound (it decides for many albums all the same); and that it writes
/// nothing (a library folder is byte for byte the same afterwards). Throws a ``CompatFailure`` naming the promise
/// broken.
public struct ImportStageCompatTest {
    private let factory: ImportStageFactory
    private let configuration: Configuration

    /// A check of the stages `factory` makes, with `configuration` (default: the defaults).
    public init(_ factory: ImportStageFactory, configuration: Configuration = Configuration(environment: [:])) {
        self.factory = factory
        self.configuration = configuration
    }

    /// Runs every check.
    public func run() async throws {
        let folder = try TemporaryFolder("stage-compat")
        defer { folder.remove() }
        let storage = FileStorage(file: folder.path("library.json"), format: JSONFormat(), coversFolder: folder.path("covers"))
        try await storage.create()
        let library = try await Library.open(storage, hub: NotificationHub())
        try await library.add(AlbumRecord(id: "held-1", title: "Low", artist: "David Bowie", year: "1977"))
        let before = Self.hashes(of: folder.url)
        let snapshot = try await library.snapshot()
        let batch = StageBatch(library: snapshot, options: ImportOptions(), hub: NotificationHub(), albumCount: Self.items.count)

        var first = try factory.make(StageContext(configuration: configuration))
        try expect(first.name == factory.name, "the stage is named '\(first.name)', but its factory registers '\(factory.name)'")
        let decisions = try await decide(&first, batch)
        var second = try factory.make(StageContext(configuration: configuration))
        let again = try await decide(&second, batch)
        try expect(decisions.map(Self.summary) == again.map(Self.summary), "two fresh stages decided differently on the same batch: it keeps state outside itself")
        try expect(decisions.count == Self.items.count, "it decided \(decisions.count) times for \(Self.items.count) albums")
        for (item, decision) in zip(Self.items, decisions) {
            guard case .pass(let passed) = decision else { continue }
            try expect(passed.label == item.label && passed.input == item.input, "it changed the label or input of \(item.label)")
            do {
                _ = try passed.record.validated(newID: .generate(), label: passed.label)
            } catch {
                throw CompatFailure("it passed \(item.label) on invalid: \(error)")
            }
        }
        try await seesMoreThanAnUnknownCount(StageBatch(library: snapshot, options: ImportOptions(), hub: NotificationHub()))
        try expect(Self.hashes(of: folder.url) == before, "the library folder changed: a stage must write nothing")
    }

    /// An import that runs each album through the stages as it is read does not know how many
    /// there will be: its batch's ``StageBatch/albumCount`` is 0, and the stage must decide for
    /// many more albums all the same.
    private func seesMoreThanAnUnknownCount(_ batch: StageBatch) async throws {
        let many = (1...Self.unknownCountAlbums).map { number in
            ImportItem(
                record: AlbumRecord(id: AlbumID("compat-many-\(number)"), title: "Album \(number)", artist: "Artist \(number)", year: "1990"),
                label: "many.json #\(number) 'Album \(number)'", input: "many.json")
        }
        var stage = try factory.make(StageContext(configuration: configuration))
        var decided = 0
        do {
            try await stage.begin(batch)
            for item in many {
                _ = try await stage.process(item)
                decided += 1
            }
            try await stage.end(batch)
        } catch {
            throw CompatFailure("stage '\(factory.name)': with albumCount 0 (not known before the albums arrive), it failed after \(decided) albums: \(error)")
        }
    }

    /// More albums than any table a stage makes room in before its first grows.
    private static let unknownCountAlbums = 200

    private func decide(_ stage: inout any ImportStage, _ batch: StageBatch) async throws -> [StageDecision] {
        try await stage.begin(batch)
        var decisions: [StageDecision] = []
        for item in Self.items { decisions.append(try await stage.process(item)) }
        try await stage.end(batch)
        return decisions
    }

    /// Albums as `validate` passes them on: ids given, fields trimmed; a duplicate of the
    /// library's album, a duplicate within the batch, text that `normalize` changes.
    static let items: [ImportItem] = [
        ("compat-1", "Heroes", "David Bowie", "Art rock", "1977", nil),
        ("compat-2", "Low", "David Bowie", "Art rock", "1977", nil),
        ("compat-3", "Café  Tacvba", "Café Tacvba", "Rock", "", "https://example.com/c.jpg"),
        ("compat-4", "東京事変", "Tokyo Jihen", "", "2004", nil),
        ("compat-5", "Heroes", "David Bowie", "Art rock", "1977", nil),
    ].enumerated().map { index, fields in
        var item = ImportItem(
            record: AlbumRecord(title: fields.1, artist: fields.2, genre: fields.3, year: fields.4, coverUrl: fields.5),
            label: "compat.json #\(index + 1) '\(fields.1)'", input: "compat.json")
        item.record.id = AlbumID(fields.0)
        return item
    }

    private static func summary(_ decision: StageDecision) -> String {
        switch decision {
        case .pass(let item):
            var record = item.record
            if item.disposition == .copy { record.id = nil }  // a copy's new id is random
            return "pass \(record) \(item.disposition)"
        case .drop(let reason): return "drop \(reason)"
        case .duplicate(let reason): return "duplicate \(reason)"
        case .fail(let reason): return "fail \(reason)"
        }
    }

    private static func hashes(of folder: URL) -> [String: String] {
        var result: [String: String] = [:]
        for name in (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? [] {
            if let bytes = try? Data(contentsOf: folder.appendingPathComponent(name)) { result[name] = SHA256Digest.hex(of: bytes) }
        }
        return result
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw CompatFailure("stage '\(factory.name)': " + message()) }
    }
}
