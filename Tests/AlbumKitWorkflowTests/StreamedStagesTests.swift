import AlbumKit
import Foundation
import Synchronization
import Testing

/// Inputs that carry no covers (``AlbumSource/carriesCovers``) have their albums go through the
/// stages as they are read, not once the last input is read; a source that says so and yields a
/// cover anyway fails the import.
@Suite struct StreamedStagesTests {
    /// What a test's source and stage share: how many albums the stage has seen, and how many
    /// it had seen when the source gave its last album.
    final class Probe: Sendable {
        let seen = Atomic(0)
        let seenBeforeLast = Atomic(-1)
    }

    /// An export of another tool, without covers: gives its first album, then waits (up to a
    /// deadline) for the stages to have seen it before it gives the second.
    struct WaitingSource: AlbumSource {
        let probe: Probe
        var name: String { "waiting" }
        var readsOtherToolsFiles: Bool { true }
        var carriesCovers: Bool { false }
        func match(_ input: SourceInput) -> SourceMatch { input.name.hasSuffix(".waiting") ? .specific : .none }
        func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
            let probe = probe
            return AsyncThrowingStream { stream in
                Task {
                    stream.yield(.album(AlbumRecord(id: "waiting:1", title: "First", artist: "Someone"), label: "waiting #1"))
                    stream.yield(.progress(bytesRead: 1, totalBytes: 2))
                    let deadline = ContinuousClock.now + .seconds(30)
                    while probe.seen.load(ordering: .acquiring) == 0, ContinuousClock.now < deadline {
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    probe.seenBeforeLast.store(probe.seen.load(ordering: .acquiring), ordering: .releasing)
                    stream.yield(.album(AlbumRecord(id: "waiting:2", title: "Second", artist: "Someone"), label: "waiting #2"))
                    stream.finish()
                }
            }
        }
    }

    /// A source that says its inputs carry no covers, and yields an album with its cover.
    struct CoverCarryingSource: AlbumSource {
        var name: String { "says-no-covers" }
        var carriesCovers: Bool { false }
        func match(_ input: SourceInput) -> SourceMatch { input.name.hasSuffix(".nocovers") ? .specific : .none }
        func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
            let bytes = Data("cover bytes".utf8)
            let path = CoverKey(bytes: bytes, fileExtension: "png").bundlePath
            return AsyncThrowingStream { stream in
                stream.yield(.album(AlbumRecord(id: "nocovers:1", title: "Covered", artist: "Someone", coverUrl: path), label: "nocovers #1"))
                stream.yield(.cover(path: path, bytes: bytes))
                stream.finish()
            }
        }
    }

    /// Counts the albums it sees, passing each.
    struct Counting: ImportStage {
        let probe: Probe
        var name: String { "counting" }
        mutating func process(_ item: ImportItem) async throws -> StageDecision {
            probe.seen.add(1, ordering: .releasing)
            return .pass(item)
        }
    }

    private func library(_ workspace: Workspace, probe: Probe) async throws -> Library {
        var registry = Workspace.registry
        registry.register(WaitingSource(probe: probe))
        registry.register(CoverCarryingSource())
        registry.register(ImportStageFactory(name: "counting", summary: "test") { _ in Counting(probe: probe) })
        let configuration = workspace.configuration(stages: ["validate", "normalize", "dedupe", "counting", "covers"])
        return try await Library.create(configuration, registry: registry, hub: workspace.hub, seed: .starter)
    }

    @Test func theStagesSeeAnAlbumBeforeTheSourceGivesItsLast() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let probe = Probe()
        let library = try await library(workspace, probe: probe)
        let input = workspace.path("in.waiting")
        try Data("anything".utf8).write(to: input)
        let (report, _) = try await library.importAlbums(from: [input])
        #expect(probe.seenBeforeLast.load(ordering: .acquiring) == 1)
        #expect(report.summary.added == 2)
        #expect(report.stages.map(\.stage) == ["validate", "normalize", "dedupe", "counting", "covers"])
        #expect(report.stages.allSatisfy { $0.received == 2 && $0.passed == 2 })
        #expect(try await library.albums().suffix(2).map(\.title) == ["First", "Second"])
    }

    @Test func aSourceThatSaysItCarriesNoCoversAndGivesOneFailsTheImport() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, probe: Probe())
        let input = workspace.path("in.nocovers")
        try Data("anything".utf8).write(to: input)
        let before = try await library.albums()
        let files = Workspace.hashes(of: workspace.path("library"))
        let error = await #expect(throws: AlbumKitError.self) { try await library.importAlbums(from: [input]) }
        #expect(error?.description.contains("the source 'says-no-covers' says its inputs carry no covers, yet it gave one") == true, "\(String(describing: error))")
        #expect(try await library.albums() == before)
        #expect(Workspace.hashes(of: workspace.path("library")) == files, "the library's files changed")
    }
}
