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
        ("storage:\n  backend: plist\n  format: yaml\n", "storage.format"),
        ("storage:\n  lockTimeout: 3\n", "line 2: unknown key 'storage.lockTimeout' (did you mean 'storage.lockTimeoutSeconds'?)"),
        ("covers:\n  allowedSchemes: [https, gopher]\n", "covers.allowedSchemes: 'gopher' is not allowed; allowed: https, http, file"),
        ("storage:\n  json:\n    pth: x.json\n", "line 3: unknown key 'storage.json.pth' (did you mean 'storage.json.path'?)"),
        ("import:\n  stages: validate\n  order: 1\n", "line 3: unknown key 'import.order'"),
        ("plugins:\n  commands:\n    - {name: x, kind: painter, run: [x]}\n", "'kind' must be one of source, stage, fetcher"),
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

    /// A plugin's own keys: declared by its factory, checked like the core's, overridable from
    /// the environment, with their defaults.
    @Test func pluginKeysAreDeclaredCheckedAndOverridable() throws {
        var registry = AdapterRegistry.builtIn
        registry.register(ImportStageFactory(
            name: "genre-map", summary: "test",
            settings: [
                SettingDeclaration("table", .map, "genre → genre"),
                SettingDeclaration("caseSensitive", .flag, default: .text("false"), "match case"),
            ]) { _ in NormalizeStage() })
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try write("plugins:\n  genre-map:\n    table: {rock: Rock, pop: Pop}\n", in: folder)
        var loader = loader(folder, env: ["ALBUMKIT_PLUGINS_GENRE_MAP_CASE_SENSITIVE": "true"])
        loader.registry = registry
        let configuration = try loader.load()
        let settings = configuration.settings(for: "genre-map")
        #expect(settings.map("table") == ["rock": "Rock", "pop": "Pop"])
        #expect(settings.flag("caseSensitive") == true)
        #expect(configuration.origin(of: "plugins.genre-map.caseSensitive") == .environment("ALBUMKIT_PLUGINS_GENRE_MAP_CASE_SENSITIVE"))
        #expect(configuration.describeOrigin(of: "plugins.genre-map.table") == "file \(file), line 3")
        _ = try write("plugins:\n  genre-map:\n    tabel: {}\n", in: folder)
        #expect { try loader.load() } throws: { "\($0)".contains("line 3: unknown key 'plugins.genre-map.tabel' (did you mean 'plugins.genre-map.table'?)") }
        _ = try write("plugins:\n  genre-mop:\n    table: {}\n", in: folder)
        #expect { try loader.load() } throws: { "\($0)".contains("unknown key 'plugins.genre-mop' (did you mean 'plugins.genre-map'?)") }
        loader.environment["ALBUMKIT_PLUGINS_GENRE_MAP_CASE_SENSITIVE"] = "perhaps"
        _ = try write("", in: folder)
        #expect { try loader.load() } throws: { "\($0)".contains("plugins.genre-map.caseSensitive (from environment ALBUMKIT_PLUGINS_GENRE_MAP_CASE_SENSITIVE): must be true or false") }
    }

    /// Files written for the earlier, flat storage keys still load: `storage.path`,
    /// `storage.url` and `storage.format` are read as the selected backend's own keys.
    @Test func earlierStorageKeysAreReadAsTheBackendsOwn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try write("storage:\n  backend: plist\n  path: old.plist\n  format: binary\n  url: ignored\n", in: folder)
        let configuration = try loader(folder).load()
        #expect(configuration.backendSettings().string("path") == "old.plist")
        #expect(configuration.backendSettings().string("format") == "binary")
        _ = try write("storage:\n  backend: plist\n  path: old.plist\n  plist:\n    path: new.plist\n", in: folder)
        #expect(try loader(folder).load().backendSettings().string("path") == "new.plist", "the backend's own key wins over the alias")
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
