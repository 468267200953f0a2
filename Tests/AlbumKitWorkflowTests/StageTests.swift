import AlbumKit
import Foundation
import Synchronization
import Testing

/// Stages registered by a program exactly as the built-ins are, run by the real pipeline.
@Suite struct StageTests {
    /// Sets every genre to "Rewritten".
    struct GenreRewrite: ImportStage {
        var name: String { "genre-rewrite" }
        mutating func process(_ item: ImportItem) async throws -> StageDecision {
            var item = item
            item.record.genre = "Rewritten"
            return .pass(item)
        }
    }

    /// Drops albums released before 1970.
    struct Before1970: ImportStage {
        var name: String { "before-1970" }
        mutating func process(_ item: ImportItem) async throws -> StageDecision {
            guard let year = Int(item.record.year), year < 1970 else { return .pass(item) }
            return .drop(reason: "released in \(year), before 1970")
        }
    }

    /// Throws on the third album it sees.
    struct ThrowsOnThird: ImportStage {
        var seen = 0
        var name: String { "explodes" }
        struct Boom: Error, CustomStringConvertible { var description: String { "exploded on purpose" } }
        mutating func process(_ item: ImportItem) async throws -> StageDecision {
            seen += 1
            if seen == 3 { throw Boom() }
            return .pass(item)
        }
    }

    /// Sets the title to a fixed text.
    struct SetTitle: ImportStage {
        let name: String
        let title: String
        mutating func process(_ item: ImportItem) async throws -> StageDecision {
            var item = item
            item.record.title = title
            return .pass(item)
        }
    }

    /// Reads each carried cover from the file its payload names, as a stage of a program may.
    struct CoverFileCheck: ImportStage {
        let seen: CoversSeen
        var name: String { "cover-file-check" }
        mutating func process(_ item: ImportItem) async throws -> StageDecision {
            if let cover = item.cover { seen.note(cover.key, try cover.bytes()) }
            return .pass(item)
        }
    }

    /// What ``CoverFileCheck`` read.
    final class CoversSeen: Sendable {
        private let list = Mutex<[(key: CoverKey, bytes: Data?)]>([])
        func note(_ key: CoverKey, _ bytes: Data?) { list.withLock { $0.append((key, bytes)) } }
        var all: [(key: CoverKey, bytes: Data?)] { list.withLock { $0 } }
    }

    static let coversSeen = CoversSeen()

    /// Passes every album, holding a token whose end says the stage was let go.
    struct Remembering: ImportStage {
        let token: StageToken
        var name: String { "remembering" }
        mutating func process(_ item: ImportItem) async throws -> StageDecision { .pass(item) }
    }

    /// Marks ``stageLetGo`` when the last copy of the stage holding it goes.
    final class StageToken: Sendable {
        deinit { StageTests.stageLetGo.withLock { $0 = true } }
    }

    static let stageLetGo = Mutex(false)

    static let registry: AdapterRegistry = {
        var registry = Workspace.registry
        registry.register(ImportStageFactory(name: "cover-file-check", summary: "test") { _ in CoverFileCheck(seen: coversSeen) })
        registry.register(ImportStageFactory(name: "remembering", summary: "test") { _ in Remembering(token: StageToken()) })
        registry.register(ImportStageFactory(name: "genre-rewrite", summary: "test") { _ in GenreRewrite() })
        registry.register(ImportStageFactory(name: "before-1970", summary: "test") { _ in Before1970() })
        registry.register(ImportStageFactory(name: "explodes", summary: "test") { _ in ThrowsOnThird() })
        registry.register(ImportStageFactory(name: "title-a", summary: "test") { _ in SetTitle(name: "title-a", title: "A") })
        registry.register(ImportStageFactory(name: "title-b", summary: "test") { _ in SetTitle(name: "title-b", title: "B") })
        registry.register(ImportStageFactory(name: "title-control", summary: "test") { _ in SetTitle(name: "title-control", title: "Bad\u{1}Title") })
        return registry
    }()

    static var albums: [[String: Any]] { [
        ["id": "a1", "title": "Abbey Road", "artist": "The Beatles", "genre": "Rock", "year": 1969],
        ["id": "a2", "title": "Low", "artist": "David Bowie", "genre": "Art rock", "year": 1977],
        ["id": "a3", "title": "Pet Sounds", "artist": "The Beach Boys", "genre": "Pop", "year": 1966],
        ["id": "a4", "title": "Blue", "artist": "Joni Mitchell", "genre": "Folk", "year": 1971],
    ] }

    private func library(_ workspace: Workspace, stages: [String]) async throws -> Library {
        let configuration = workspace.configuration(stages: stages)
        let library = try await Library.create(configuration, registry: Self.registry, hub: workspace.hub, seed: .starter)
        _ = workspace.events.take()
        return library
    }

    @Test func aStageChangesWhatIsImportedAndOneUndoTakesItAllBack() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, stages: ["validate", "normalize", "dedupe", "genre-rewrite", "covers"])
        let before = try await library.albums()
        _ = try await library.importAlbums(from: [try workspace.albumList("in.json", Self.albums)])
        let imported = try await library.albums().suffix(4)
        #expect(imported.map(\.genre) == ["Rewritten", "Rewritten", "Rewritten", "Rewritten"])
        try await library.undo()
        #expect(try await library.albums() == before)
    }

    /// `validate` checks each album once, and its check stands only until a stage changes the
    /// album: one that breaks a field rule after it fails the import at the commit, naming the
    /// album and the field, with nothing written.
    @Test func aStageThatBreaksAFieldRuleAfterValidateFailsTheImport() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, stages: ["validate", "normalize", "title-control", "dedupe", "covers"])
        let before = try await library.albums()
        let input = try workspace.albumList("in.json", Self.albums)
        let error = await #expect(throws: AlbumKitError.self) { _ = try await library.importAlbums(from: [input]) }
        #expect(error?.kind == .invalidAlbum, "\(String(describing: error))")
        #expect(error?.description.contains("field 'title' holds a control character") == true, "\(String(describing: error))")
        #expect(try await library.albums() == before)
    }

    @Test func aStageReadsEachCarriedCoverFromItsFile() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let bundle = workspace.path("starter.tar.gz")
        try await library(workspace, stages: ["validate"]).export(to: bundle)
        let other = try Workspace()
        defer { other.remove() }
        let configuration = other.configuration(stages: ["validate", "normalize", "dedupe", "covers", "cover-file-check"])
        _ = try await Library.create(configuration, registry: Self.registry, hub: other.hub).importAlbums(from: [bundle])
        let seen = Self.coversSeen.all
        #expect(!seen.isEmpty)
        for (key, bytes) in seen {
            #expect(bytes.map { CoverKey(bytes: $0, fileExtension: key.fileExtension) } == key, "\(key): \(bytes?.count ?? -1) bytes read")
        }
    }

    /// The stages are let go once they have ended: by the time the albums are saved, nothing a
    /// stage remembers (`dedupe` a key for every album) is held any more.
    @Test func theStagesAreLetGoBeforeTheAlbumsAreSaved() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, stages: ["validate", "normalize", "dedupe", "remembering", "covers"])
        let letGoAtSave = Mutex<[Bool]>([])
        let subscription = workspace.hub.subscribe { event in
            if case .saved = event { letGoAtSave.withLock { $0.append(Self.stageLetGo.withLock { $0 }) } }
        }
        defer { subscription.cancel() }
        _ = try await library.importAlbums(from: [try workspace.albumList("in.json", Self.albums)])
        #expect(letGoAtSave.withLock { $0 } == [true])
    }

    @Test func droppedAlbumsShowInTheDryRunPlanAndStayOut() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, stages: ["validate", "before-1970", "dedupe", "covers"])
        let input = try workspace.albumList("in.json", Self.albums)
        let (dry, _) = try await library.importAlbums(from: [input], options: ImportOptions(dryRun: true))
        let dropped = dry.plan.entries.filter { $0.outcome == .dropped }
        #expect(dropped.map(\.album.title) == ["Abbey Road", "Pet Sounds"])
        #expect(dropped.allSatisfy { $0.stage == "before-1970" && $0.reason?.contains("before 1970") == true })
        #expect(dry.plan.entries.map(\.outcome) == [.dropped, .new, .dropped, .new])
        let (real, _) = try await library.importAlbums(from: [input])
        #expect(real.summary.added == 2 && real.summary.dropped == 2)
        let titles = try await library.albums().map(\.title)
        #expect(titles.contains("Low") && !titles.contains("Abbey Road") && !titles.contains("Pet Sounds"))
    }

    @Test func aStageThatThrowsFailsTheImportNamingAlbumAndStageAndChangesNoFile() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, stages: ["validate", "explodes", "dedupe", "covers"])
        let folder = URL(fileURLWithPath: library.configuration.library)
        let before = Workspace.hashes(of: folder)
        let input = try workspace.albumList("in.json", Self.albums)
        do {
            _ = try await library.importAlbums(from: [input])
            Issue.record("the import should have failed")
        } catch let error as AlbumKitError {
            #expect(error.kind == .stageFailed)
            #expect(error.description.contains("'Pet Sounds'") && error.description.contains("stage 'explodes'"), "\(error)")
            #expect(error.description.contains("exploded on purpose"))
        }
        #expect(Workspace.hashes(of: folder) == before, "the library folder must be byte for byte as it was")
        #expect(workspace.events.take().map(\.name).last == "import.failed")
    }

    @Test func theStageListedLaterWins() async throws {
        for (order, expected) in [(["title-a", "title-b"], "B"), (["title-b", "title-a"], "A")] {
            let workspace = try Workspace()
            defer { workspace.remove() }
            let library = try await library(workspace, stages: ["validate"] + order + ["dedupe", "covers"])
            _ = try await library.importAlbums(from: [try workspace.albumList("in.json", [Self.albums[1]])])
            #expect(try await library.albums().last?.title == expected, "order \(order)")
        }
    }

    @Test func eachStageReportsItsCountsInOrder() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, stages: ["validate", "before-1970", "dedupe", "covers"])
        let duplicate: [String: Any] = ["title": "Low", "artist": "David Bowie", "year": 1977]
        _ = try await library.importAlbums(from: [try workspace.albumList("in.json", Self.albums + [duplicate])])
        let reports = workspace.events.take().compactMap { event -> StageReport? in
            if case .stageFinished(let report) = event { report } else { nil }
        }
        #expect(reports.map(\.stage) == ["validate", "before-1970", "dedupe", "covers"])
        #expect(reports.map(\.received) == [5, 5, 3, 2])
        #expect(reports.map(\.passed) == [5, 3, 2, 2])
        #expect(reports.map(\.dropped) == [0, 2, 1, 0])
    }

    @Test(arguments: [
        (["validate", "nosuch", "covers"], "unknown stage 'nosuch'"),
        (["validate", "dedupe", "dedupe", "covers"], "stage 'dedupe' is listed twice"),
        (["dedupe", "covers"], "stage 'validate' cannot be left out"),
        (["validate", "dedupe"], "stage 'covers' cannot be left out"),
    ])
    func badStageListsAreConfigurationErrors(_ stages: [String], _ message: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var configuration = workspace.configuration(stages: stages)
        let library = try await Library.create(configuration, registry: Self.registry, hub: workspace.hub)
        configuration.importStages = stages
        do {
            _ = try await library.importAlbums(from: [try workspace.albumList("in.json", Self.albums)])
            Issue.record("\(stages) should be refused")
        } catch let error as AlbumKitError {
            #expect(error.kind == .configuration)
            #expect(error.description.contains("import.stages") && error.description.contains(message), "\(error)")
        }
    }
}
