import AlbumKit
import AlbumKitBundle
import Foundation
import Testing

/// Every workflow the command has, done by a program that links only AlbumKit and
/// AlbumKitBundle (no CLI): init, import, export, restore --force, verify, migrate — each
/// seen through its own events.
@Suite struct WorkflowTests {
    /// A restore writes the bundle's history under ids the library it replaces never named,
    /// so a crash before the new library file is in place cannot leave the old one naming
    /// step files that hold the bundle's steps. The history still walks as it did.
    @Test func aRestoredHistoryTakesStepIDsTheReplacedLibraryNeverNamed() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await Library.create(workspace.configuration(), registry: Workspace.registry, hub: workspace.hub, seed: .starter)
        for index in 0..<3 { try await library.add(AlbumRecord(title: "Before \(index)", artist: "A")) }
        let backup = workspace.path("backup.tar.gz")
        _ = try await library.export(to: backup)
        for index in 0..<2 { try await library.add(AlbumRecord(title: "After \(index)", artist: "B")) }
        let old = await library.memento
        _ = try await library.restore(from: backup, force: true)
        let restored = await library.memento
        #expect(restored.undo.map(\.label) == Array(old.undo.map(\.label).prefix(3)))
        #expect(Set(restored.stepIDs).isDisjoint(with: old.stepIDs), "old \(old.stepIDs), restored \(restored.stepIDs)")
        #expect(restored.nextStep > restored.stepIDs.max()!)
        try await library.undo()
        #expect(try await library.albums().map(\.title).suffix(2) == ["Before 0", "Before 1"])
        #expect(try await library.verify().problems.isEmpty)
    }

    @Test func aProgramDoesEveryWorkflowThroughTheLibrary() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = workspace.configuration()
        let registry = Workspace.registry

        // init from the starter
        let library = try await Library.create(configuration, registry: registry, hub: workspace.hub, seed: .starter)
        #expect(try await library.albums().count == 5)
        #expect(workspace.events.take().map(\.name).contains("library.stateRestored"))

        // import
        let list = try workspace.albumList("more.json", [["title": "Low", "artist": "David Bowie", "year": 1977]])
        let (report, _) = try await library.importAlbums(from: [list])
        #expect(report.summary.added == 1)
        let importEvents = workspace.events.take().map(\.name)
        #expect(importEvents.first == "import.started" && importEvents.contains("import.finished"))
        #expect(importEvents.filter { $0 == "pipeline.stageFinished" }.count == 4)

        // export
        let backup = workspace.path("backup.tar.gz")
        let exported = try await library.export(to: backup)
        #expect(exported.albums == 6 && exported.exporter == "bundle")
        #expect(workspace.events.take().map(\.name).filter { $0.hasPrefix("export.") }.first == "export.started")
        await #expect(throws: AlbumKitError.self) { try await library.export(to: backup) }  // exists: needs replacing

        // restore --force, after a change, saves the library it replaces
        try await library.remove([.position(1)])
        await #expect(throws: AlbumKitError.self) { try await library.restore(from: backup) }
        _ = workspace.events.take()
        let restored = try await library.restore(from: backup, force: true)
        #expect(restored.albums == 6)
        let saved = try #require(restored.backup)
        #expect(FileManager.default.fileExists(atPath: saved) && saved.contains("/backups/"))
        let restoreEvents = workspace.events.take().map(\.name)
        #expect(restoreEvents.first == "restore.started" && restoreEvents.last == "restore.finished")
        #expect(restoreEvents.contains("restore.progress"))
        #expect(!restoreEvents.contains { $0.hasPrefix("import.") }, "a restore publishes its own events: \(restoreEvents)")

        // verify: the library and the bundle
        #expect(try await library.verify().problems.isEmpty)
        #expect(try await Library.verify(input: backup, configuration: configuration, registry: registry).problems.isEmpty)

        // migrate to the bundle backend, config file written
        let outcome = try await library.migrate(to: MigrationTarget(backend: "bundle"))
        #expect(outcome.report.albums == 6 && outcome.createdFile)
        let yaml = try String(contentsOfFile: outcome.configurationFile, encoding: .utf8)
        #expect(yaml.contains("backend: bundle"))
        let migrateEvents = workspace.events.take().map(\.name)
        #expect(migrateEvents.first == "migrate.started")
        #expect(migrateEvents.suffix(2) == ["migrate.finished", "storage.switched"])
        #expect(!migrateEvents.contains { $0.hasPrefix("export.") })
        var moved = configuration
        moved.storage.backend = "bundle"
        let reopened = try await Library.open(moved, registry: registry, hub: workspace.hub)
        #expect(try await reopened.albums() == library.albums())
    }

    @Test func restoreOfABadBundleFailsWithItsOwnEventAndChangesNothing() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await Library.create(workspace.configuration(), registry: Workspace.registry, hub: workspace.hub, seed: .starter)
        let folder = URL(fileURLWithPath: workspace.configuration().library)
        let before = Workspace.hashes(of: folder)
        let bad = workspace.path("bad.tar.gz")
        try Data("not a bundle at all".utf8).write(to: bad)
        _ = workspace.events.take()
        await #expect(throws: AlbumKitError.self) { try await library.restore(from: bad, force: true) }
        #expect(workspace.events.take().map(\.name) == ["restore.started", "restore.failed"])
        #expect(Workspace.hashes(of: folder) == before)
    }

    @Test func initFromABadStarterLeavesNothingBehind() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let missing = workspace.path("nope.tar.gz")
        await #expect(throws: AlbumKitError.self) {
            _ = try await Library.create(workspace.configuration(), registry: Workspace.registry, hub: workspace.hub, seed: .input(missing))
        }
        let corrupt = workspace.path("corrupt.json")
        try Data("[{\"title\": 1}]".utf8).write(to: corrupt)
        await #expect(throws: AlbumKitError.self) {
            _ = try await Library.create(workspace.configuration(), registry: Workspace.registry, hub: workspace.hub, seed: .input(corrupt))
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.configuration().library))
    }
}
