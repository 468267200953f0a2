import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// SPEC 4: file, environment, flags, in that order; unknown keys and bad values named.
@Suite struct ConfigurationTests {
    private func write(_ yaml: String, in folder: TemporaryFolder, name: String = "albumkit.yaml") throws -> String {
        let file = folder.path(name)
        try Data(yaml.utf8).write(to: file)
        return file.path
    }

    private func loader(_ folder: TemporaryFolder, env: [String: String] = [:]) -> ConfigurationLoader {
        ConfigurationLoader(
            environment: ["HOME": folder.url.path, "XDG_CONFIG_HOME": folder.path("cfg").path, "XDG_DATA_HOME": folder.path("data").path].merging(env) { $1 },
            workingDirectory: folder.url.path)
    }

    @Test func noFileGivesTheEmbeddedDefault() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let configuration = try loader(folder).load()
        #expect(configuration.file == nil)
        #expect(configuration.library == folder.path("data").path + "/albumkit")
        #expect(configuration.storage.backend == "json")
        #expect(configuration.origin(of: "storage.backend") == .defaultValue)
    }

    @Test func environmentOverridesFileAndFlagsOverrideBoth() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try write("""
            # comment
            library: lib
            storage:
              backend: plist
              format: binary
              lockTimeoutSeconds: 5
            covers:
              fetchers: [file, http]
              concurrency: 3
            limits: {coverBytes: 1000}
            """, in: folder)
        var loader = loader(folder, env: ["ALBUMKIT_COVERS_CONCURRENCY": "4", "ALBUMKIT_STORAGE_BACKEND": "json", "ALBUMKIT_COVERS_FILE_ROOTS": "/a, /b"])
        var configuration = try loader.load()
        #expect(configuration.file == file)
        #expect(configuration.library == folder.path("lib").path, "a relative library resolves against the file's folder")
        #expect(configuration.storage.format == "binary")
        #expect(configuration.storage.lockTimeoutSeconds == 5)
        #expect(configuration.covers.fetchers == ["file", "http"])
        #expect(configuration.covers.concurrency == 4)
        #expect(configuration.covers.fileRoots == ["/a", "/b"])
        #expect(configuration.limits.coverBytes == 1000)
        #expect(configuration.storage.backend == "json")
        #expect(configuration.origin(of: "storage.backend") == .environment("ALBUMKIT_STORAGE_BACKEND"))
        #expect(configuration.origin(of: "storage.format") == .file(file))
        loader.flags["storage.backend"] = ("plist", "--backend")
        configuration = try loader.load()
        #expect(configuration.storage.backend == "plist")
        #expect(configuration.origin(of: "storage.backend") == .flag("--backend"))
    }

    @Test(arguments: [
        ("storage:\n  bakend: json\n", "unknown key 'storage.bakend'"),
        ("colour: blue\n", "unknown key 'colour'"),
        ("covers:\n  concurrency: many\n", "covers.concurrency"),
        ("storage:\n  format: yaml\n", "storage.format"),
        ("storage: json\n", "'storage' must be a mapping"),
        ("storage: [\n", "not valid YAML"),
    ])
    func badFilesAreRefusedNamingKeyAndFile(_ yaml: String, _ expected: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try write(yaml, in: folder)
        #expect { try loader(folder).load() } throws: { error in
            let text = "\(error)"
            return text.contains(expected) && text.contains(file)
        }
    }

    @Test func badEnvironmentValueNamesTheVariable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect { try loader(folder, env: ["ALBUMKIT_COVERS_MAX_BYTES": "-5"]).load() } throws: { "\($0)".contains("ALBUMKIT_COVERS_MAX_BYTES") }
    }

    @Test func searchOrderIsFlagThenVariableThenLocalThenXDG() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.path("cfg/albumkit"), withIntermediateDirectories: true)
        let xdg = try write("storage: {backend: plist}\n", in: folder, name: "cfg/albumkit/config.yaml")
        #expect(try loader(folder).configurationFile() == xdg)
        let local = try write("storage: {backend: json}\n", in: folder)
        #expect(try loader(folder).configurationFile() == local)
        let named = try write("{}\n", in: folder, name: "named.yaml")
        #expect(try loader(folder, env: ["ALBUMKIT_CONFIG": named]).configurationFile() == named)
        var explicit = loader(folder, env: ["ALBUMKIT_CONFIG": named])
        explicit.explicitFile = "missing.yaml"
        #expect(throws: AlbumKitError.self) { try explicit.configurationFile() }
    }

    @Test func environmentNamesAreUpperSnakeCase() {
        #expect(ConfigurationKey.named("storage.lockTimeoutSeconds")?.environmentName == "ALBUMKIT_STORAGE_LOCK_TIMEOUT_SECONDS")
        #expect(ConfigurationKey.named("covers.allowedSchemes")?.environmentName == "ALBUMKIT_COVERS_ALLOWED_SCHEMES")
        #expect(ConfigurationKey.named("library")?.environmentName == "ALBUMKIT_LIBRARY")
    }

    @Test func unknownBackendIsNamedWithTheRegisteredOnes() throws {
        var configuration = Configuration(environment: [:])
        configuration.storage.backend = "floppy"
        #expect { try AdapterRegistry.builtIn.makeStorage(for: configuration) } throws: { "\($0)".contains("floppy") && "\($0)".contains("json, plist") }
    }
}
