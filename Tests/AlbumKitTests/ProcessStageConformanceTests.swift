import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// A stage that is a program passes the same conformance check as every stage: the shipped
/// `genre_map.py`, run as a real process.
@Suite struct ProcessStageConformanceTests {
    @Test func theGenreMapProgramConforms() async throws {
        let program = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/plugins/genre_map.py").standardizedFileURL
        var configuration = Configuration(environment: [:])
        configuration.plugins.commands = [ProcessPluginCommand(name: "genre-map", kind: .stage, run: ["python3", program.path])]
        configuration.sectionValues["plugins.genre-map"] = PluginSettings(["table": .map(["art rock": "Art Rock"])])
        var registry = AdapterRegistry.builtIn
        try registry.registerProcessPlugins(of: configuration, environment: [:], hub: nil)
        let factory = try #require(registry.importStages["genre-map"])
        #expect(factory.origin == .process("python3 \(program.path)"))
        try await ImportStageCompatTest(factory, configuration: configuration).run()
    }
}
