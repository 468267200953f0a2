import AlbumKit
import AlbumKitTesting
import SQLiteStorage
import Foundation
import Testing

/// How `migrate` writes the new storage keys into a configuration file.
@Suite struct MigrationConfigFileTests {
    private func write(_ text: String?, _ values: [(key: String, value: String?)], library: String? = nil) throws -> (String, Bool) {
        let folder = try TemporaryFolder("config-file")
        defer { folder.remove() }
        let file = folder.path("sub/config.yaml")
        if let text {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let kept = try MigrationConfigFile(path: file.path).setStorage(values, newFileLibrary: library)
        return (try String(contentsOf: file, encoding: .utf8), kept)
    }

    @Test func aMissingFileIsCreatedWithItsFolder() throws {
        let (text, kept) = try write(nil, [("backend", "sqlite"), ("path", nil)], library: "/data/my albums")
        #expect(text == "library: \"/data/my albums\"\nstorage:\n  backend: sqlite\n")
        #expect(kept)
    }

    /// A migrate killed while writing the file left its temporary file; the next one removes
    /// it, and no other file's.
    @Test func aKilledWritesTemporaryFileIsRemoved() throws {
        let folder = try TemporaryFolder("config-file")
        defer { folder.remove() }
        let own = folder.path(".config.yaml.tmp-99999999-3"), other = folder.path(".other.yaml.tmp-99999999-3")
        for file in [own, other] { try Data("storage:\n  backend: sq".utf8).write(to: file) }

        try MigrationConfigFile(path: folder.path("config.yaml").path).setStorage([("backend", "sqlite")])

        #expect(!FileManager.default.fileExists(atPath: own.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
    }

    @Test func keysAreReplacedAddedAndRemovedInPlace() throws {
        let original = """
            # top comment
            storage:
                backend: json  # the old one
                path: library.json
                lockTimeoutSeconds: 5
            # trailing comment
            covers: {concurrency: 2}
            """
        let (text, kept) = try write(original, [("backend", "postgres"), ("path", nil), ("postgres.url", "postgres://me:p@ss@db:5432/albums")])
        #expect(kept)
        #expect(text == """
            # top comment
            storage:
                backend: postgres  # the old one
                lockTimeoutSeconds: 5
                postgres:
                  url: postgres://me:p@ss@db:5432/albums
            # trailing comment
            covers: {concurrency: 2}

            """)
    }

    @Test func aSectionWithoutStorageGetsOneAppended() throws {
        let (text, _) = try write("library: ~/music\n", [("backend", "sqlite"), ("sqlite.path", "a b.sqlite")])
        #expect(text == "library: ~/music\nstorage:\n  backend: sqlite\n  sqlite:\n    path: \"a b.sqlite\"\n")
    }

    @Test func aBackendSectionThatExistsIsEditedInPlace() throws {
        let original = "storage:\n  backend: json\n  sqlite:\n    path: old.sqlite # mine\n  lockTimeoutSeconds: 2\n"
        let (text, kept) = try write(original, [("backend", "sqlite"), ("sqlite.path", "new.sqlite")])
        #expect(kept)
        #expect(text == "storage:\n  backend: sqlite\n  sqlite:\n    path: new.sqlite # mine\n  lockTimeoutSeconds: 2\n")
    }

    @Test func aFlowStyleStorageSectionIsRewrittenAndSaysCommentsWentAway() throws {
        let (text, kept) = try write("# note\nstorage: {backend: json, path: x.json, lockTimeoutSeconds: 4}\n", [("backend", "sqlite"), ("path", nil), ("sqlite.path", "y.sqlite")])
        #expect(!kept)
        let folder = try TemporaryFolder("config-read")
        defer { folder.remove() }
        try text.write(to: folder.path("config.yaml"), atomically: true, encoding: .utf8)
        var registry = AdapterRegistry.builtIn
        registry.register(.sqlite)
        let configuration = try ConfigurationLoader(explicitFile: folder.path("config.yaml").path, environment: [:], registry: registry).load()
        #expect(configuration.storage.backend == "sqlite")
        #expect(configuration.storage.path == nil)
        #expect(configuration.backendSettings("sqlite").string("path") == "y.sqlite")
        #expect(configuration.storage.lockTimeoutSeconds == 4)
    }
}
