import AlbumKit
import AlbumKitTesting
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
        let (text, kept) = try write(original, [("backend", "postgres"), ("path", nil), ("url", "postgres://me:p@ss@db:5432/albums")])
        #expect(kept)
        #expect(text == """
            # top comment
            storage:
                backend: postgres  # the old one
                lockTimeoutSeconds: 5
                url: postgres://me:p@ss@db:5432/albums
            # trailing comment
            covers: {concurrency: 2}

            """)
    }

    @Test func aSectionWithoutStorageGetsOneAppended() throws {
        let (text, _) = try write("library: ~/music\n", [("backend", "sqlite"), ("path", "a b.sqlite")])
        #expect(text == "library: ~/music\nstorage:\n  backend: sqlite\n  path: \"a b.sqlite\"\n")
    }

    @Test func aFlowStyleStorageSectionIsRewrittenAndSaysCommentsWentAway() throws {
        let (text, kept) = try write("# note\nstorage: {backend: json, path: x.json, lockTimeoutSeconds: 4}\n", [("backend", "sqlite"), ("path", nil)])
        #expect(!kept)
        let folder = try TemporaryFolder("config-read")
        defer { folder.remove() }
        try text.write(to: folder.path("config.yaml"), atomically: true, encoding: .utf8)
        let configuration = try ConfigurationLoader(explicitFile: folder.path("config.yaml").path, environment: [:]).load()
        #expect(configuration.storage.backend == "sqlite")
        #expect(configuration.storage.path == nil)
        #expect(configuration.storage.lockTimeoutSeconds == 4)
    }
}
