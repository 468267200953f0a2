import AlbumKit
import Foundation
import Testing

/// What a process killed mid-write leaves (temporary files, cover staging folders) is removed
/// by the next write to the same place; what a live process is writing, and every other file,
/// is left alone.
@Suite struct LeftoverFilesTests {
    /// Names as a killed `albumkit` leaves them: `.<name>.tmp-<pid>-<n>`, `.albumkit-staging-<pid>-<n>`.
    static let deadOwner = "99999999-17"

    @Test func aSaveSweepsWhatAKilledWriterLeft() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = workspace.configuration()
        let library = try await Library.create(configuration, registry: Workspace.registry, hub: workspace.hub, seed: .starter)
        let folder = configuration.libraryDirectory
        let dead = [
            ".library.json.tmp-\(Self.deadOwner)",
            "library.history/.1.json.tmp-\(Self.deadOwner)",
            ".albumkit-staging-\(Self.deadOwner)/\(String(repeating: "cd", count: 32)).png",
        ]
        let kept = ["notes.tmp-by-hand", ".hidden", "covers/README"]
        for name in dead + kept { try plant(name, in: folder) }
        // A writer in this process that has not committed yet: its file is locked, so not a leftover.
        let live = try TemporaryFile(beside: folder.appendingPathComponent("library.json"))

        try await library.add(AlbumRecord(title: "After The Crash", artist: "Survivor"))

        for name in dead { #expect(!exists(name, in: folder), "\(name) was left") }
        for name in kept { #expect(exists(name, in: folder), "\(name) was removed") }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains { $0.hasPrefix(".library.json.tmp-\(getpid())-") }, "a live writer's temporary file was removed")
        withExtendedLifetime(live) {}
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".albumkit-staging-\(Self.deadOwner)").path))
    }

    /// The library folder is swept on every backend, not only where the library file lives:
    /// a migrate killed while writing the folder marker, an import or restore killed while
    /// staging covers, leave their files there whatever holds the library.
    @Test(arguments: ["json", "sqlite"]) func aSaveSweepsTheLibraryFolderOnEveryBackend(backend: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let configuration = workspace.configuration(backend: backend)
        let library = try await Library.create(configuration, registry: Workspace.registry, hub: workspace.hub, seed: .starter)
        let folder = configuration.libraryDirectory
        let dead = [".\(LibraryFolderMarker.fileName).tmp-\(Self.deadOwner)", ".albumkit-staging-\(Self.deadOwner)/\(String(repeating: "cd", count: 32)).png"]
        for name in dead { try plant(name, in: folder) }

        try await library.add(AlbumRecord(title: "After The Crash", artist: "Survivor"))

        for name in dead { #expect(!exists(name, in: folder), "\(name) was left on \(backend)") }
    }

    /// The covers folder is swept by the work that writes or drops covers — import, restore,
    /// migrate, `covers fetch`, `covers prune` — and only their own kind of leftover goes.
    @Test(arguments: ["import", "restore", "migrate", "fetch", "prune"]) func coverWorkSweepsTheCoversFolder(work: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (library, folder, bundle) = try await starterWithBackup(workspace)
        let covers = folder.appendingPathComponent("covers")
        let dead = ".\(String(repeating: "ab", count: 32)).png.tmp-\(Self.deadOwner)"
        let kept = ["README", ".hidden"]
        for name in [dead] + kept { try plant(name, in: covers) }

        switch work {
        case "import": _ = try await library.importAlbums(from: [bundle], options: ImportOptions(onDuplicate: .keep))
        case "restore": _ = try await library.restore(from: bundle, force: true)
        case "migrate": _ = try await library.migrate(to: MigrationTarget(backend: "plist"))
        case "fetch": _ = try await library.fetchCovers(of: [])
        default: _ = try await library.pruneCovers()
        }

        #expect(!exists(dead, in: covers), "\(work) left a killed cover write's temporary file")
        for name in kept { #expect(exists(name, in: covers), "\(work) removed \(name)") }
    }

    @Test func anExportSweepsOnlyItsOwnFilesLeftovers() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await Library.create(workspace.configuration(), registry: Workspace.registry, hub: workspace.hub, seed: .starter)
        let out = workspace.path("out")
        let own = ".backup.tar.gz.tmp-\(Self.deadOwner)"
        let other = ".other.tar.gz.tmp-\(Self.deadOwner)"
        for name in [own, other] { try plant(name, in: out) }

        try await library.export(to: out.appendingPathComponent("backup.tar.gz"))

        #expect(!exists(own, in: out), "the killed export's temporary file was left")
        #expect(exists(other, in: out), "a file of another export was removed")
    }

    @Test func aRestoreSweepsTheBackupsAKilledOneLeft() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (library, folder, bundle) = try await starterWithBackup(workspace)
        let backups = folder.appendingPathComponent("backups")
        let dead = ".library-2026-11-23T05-00-00Z.tar.gz.tmp-\(Self.deadOwner)"
        try plant(dead, in: backups)

        _ = try await library.restore(from: bundle, force: true)

        #expect(!exists(dead, in: backups), "the killed backup's temporary file was left")
    }

    /// A json library of the starter albums, its folder, and a bundle exported from it.
    private func starterWithBackup(_ workspace: Workspace) async throws -> (Library, URL, URL) {
        let configuration = workspace.configuration()
        let library = try await Library.create(configuration, registry: Workspace.registry, hub: workspace.hub, seed: .starter)
        let bundle = workspace.path("saved.tar.gz")
        try await library.export(to: bundle)
        return (library, configuration.libraryDirectory, bundle)
    }

    private func plant(_ name: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("half written".utf8).write(to: url)
    }

    private func exists(_ name: String, in folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
    }
}
