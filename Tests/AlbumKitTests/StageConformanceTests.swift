import AlbumKit
import AlbumKitTesting
import Testing

/// The built-in stages pass the conformance check every stage author runs.
@Suite struct StageConformanceTests {
    @Test(arguments: ["validate", "normalize", "dedupe", "covers"])
    func builtInStageConforms(_ name: String) async throws {
        let factory = try #require(AdapterRegistry.builtIn.importStages[name])
        try await ImportStageCompatTest(factory).run()
    }

    /// A stage that keeps state outside itself (a counter shared by every stage the factory
    /// makes) is caught.
    @Test func aStageWithSharedStateFails() async throws {
        let shared = Counter()
        let factory = ImportStageFactory(name: "leaky", summary: "test") { _ in Leaky(counter: shared) }
        await #expect(throws: CompatFailure.self) { try await ImportStageCompatTest(factory).run() }
    }

    /// A stage that takes the batch's album count for a bound (a table sized from it, full at
    /// the count) is caught: a streamed import's count is 0, and its stages see every album.
    @Test func aStageBoundByTheAlbumCountFails() async throws {
        let factory = ImportStageFactory(name: "bounded", summary: "test") { _ in Bounded() }
        let failure = await #expect(throws: CompatFailure.self) { try await ImportStageCompatTest(factory).run() }
        #expect(failure?.description.contains("with albumCount 0") == true, "\(String(describing: failure))")
    }

    final class Counter: @unchecked Sendable { var value = 0 }

    struct Bounded: ImportStage {
        var room = 0
        var seen = 0
        var name: String { "bounded" }
        mutating func begin(_ batch: StageBatch) async throws { room = max(batch.albumCount, 5) }
        mutating func process(_ item: ImportItem) async throws -> StageDecision {
            seen += 1
            guard seen <= room else { throw AlbumKitError(.stageFailed, "album \(seen) past the \(room) made room for") }
            return .pass(item)
        }
    }

    struct Leaky: ImportStage {
        let counter: Counter
        var name: String { "leaky" }
        mutating func process(_ item: ImportItem) async throws -> StageDecision {
            counter.value += 1
            var item = item
            item.record.genre = "seen \(counter.value)"
            return .pass(item)
        }
    }
}
