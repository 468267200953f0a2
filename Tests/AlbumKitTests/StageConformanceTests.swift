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

    final class Counter: @unchecked Sendable { var value = 0 }

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
