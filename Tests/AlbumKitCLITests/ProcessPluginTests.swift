import AlbumKitTesting
import Foundation
import Testing

/// Plugins in any language, end to end: real Python programs (the shipped examples and small
/// misbehaving ones) spoken to by the real `albumkit` binary.
@Suite struct ProcessPluginTests {
    @Test func csvSourceAndGenreMapStageImportAsOneUndoableStep() throws {
        let lab = try PluginLab()
        defer { lab.remove() }
        try lab.writeConfig("""
            plugins:
              commands:
                - {name: csv, kind: source, run: [python3, \(lab.example("csv_source.py"))]}
                - {name: genre-map, kind: stage, run: [python3, \(lab.example("genre_map.py"))]}
              csv:
                columns: {title: Album, artist: Band, genre: Style, year: Released}
              genre-map:
                table: {"hip-hop": "Hip hop", "Rock & Roll": "Rock and roll"}
            import:
              stages: [validate, normalize, genre-map, dedupe, covers]
            """)
        let csv = try lab.write("albums.csv", """
            Band,Album,Released,Style
            Nas,Illmatic,1994,Hip-Hop
            Chuck Berry,After School Session,1957,Rock & Roll
            Miles Davis,Kind of Blue,1959,Jazz
            """)
        #expect(try lab.cli.run("init", "--starter").status == 0)
        let before = try lab.albums()

        let imported = try lab.cli.run("import", csv.path, "--format", "csv")
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("3 added"), "\(imported.output)")
        let after = try lab.albums()
        #expect(after.count == before.count + 3)
        let genres = Dictionary(uniqueKeysWithValues: after.suffix(3).map { ($0["title"] as? String ?? "", $0["genre"] as? String ?? "") })
        #expect(genres == ["Illmatic": "Hip hop", "After School Session": "Rock and roll", "Kind of Blue": "Jazz"])
        #expect(after.suffix(3).map { $0["artist"] as? String } == ["Nas", "Chuck Berry", "Miles Davis"])
        #expect(after.last?["year"] as? String == "1959")

        #expect(try lab.cli.run("undo").status == 0)
        #expect(try lab.albums().map { $0["id"] as? String } == before.map { $0["id"] as? String }, "one undo takes the whole import back")

        let pipeline = try lab.cli.run("pipeline", "show")
        #expect(pipeline.output.contains("3. genre-map") && pipeline.output.contains("process python3"), "\(pipeline.output)")
        let plugins = try lab.cli.run("plugins")
        #expect(plugins.status == 0, "\(plugins.error)")
        let csvLine = plugins.output.split(separator: "\n").first { $0.contains("csv —") }
        #expect(csvLine?.contains("process python3") == true && csvLine?.contains("1.0.0") == true, "\(plugins.output)")
        let stageLine = plugins.output.split(separator: "\n").first { $0.contains("genre-map —") }
        #expect(stageLine?.contains("1.0.0") == true, "\(plugins.output)")
        #expect(plugins.output.contains("json —") && plugins.output.contains("built-in"))
    }

    @Test func aStageDroppingOldAlbumsShowsEachWithItsReasonInTheDryRun() throws {
        let lab = try PluginLab()
        defer { lab.remove() }
        let stage = try lab.write("vintage.py", PluginLab.preamble + """
            send({"type": "hello", "protocol": 1, "kind": "stage", "name": "vintage", "version": "2.1"})
            receive()
            while True:
                request = receive()
                if request is None:
                    break
                year = request["album"].get("year") or ""
                print("looking at \\x1b[1m%s\\x1b[0m" % request["album"]["title"], file=sys.stderr)
                if year and int(year) < 1970:
                    send({"type": "drop", "reason": "released in %s, before 1970" % year})
                else:
                    send({"type": "pass"})
            """)
        try lab.writeConfig("""
            plugins:
              commands:
                - {name: vintage, kind: stage, run: [python3, \(stage.path)]}
            import:
              stages: [validate, vintage, normalize, dedupe, covers]
            """)
        let input = try lab.write("albums.json", """
            [{"title": "Blue Train", "artist": "John Coltrane", "year": 1957},
             {"title": "Low", "artist": "David Bowie", "year": "1977"},
             {"title": "Revolver", "artist": "The Beatles", "year": 1966}]
            """)
        #expect(try lab.cli.run("init").status == 0)

        let plan = try lab.cli.run("import", input.path, "--dry-run")
        #expect(plan.status == 0, "\(plan.error)")
        let dropped = plan.output.split(separator: "\n").filter { $0.hasPrefix("dropped") }
        #expect(dropped.count == 2, "\(plan.output)")
        #expect(dropped.contains { $0.contains("Blue Train") && $0.contains("stage 'vintage'") && $0.contains("released in 1957, before 1970") })
        #expect(dropped.contains { $0.contains("Revolver") && $0.contains("released in 1966, before 1970") })
        #expect(plan.output.split(separator: "\n").contains { $0.hasPrefix("new") && $0.contains("Low") })
        #expect(!plan.error.contains("looking at"), "a plugin's standard error shows only under --verbose")
        let verbose = try lab.cli.run("--verbose", "import", input.path, "--dry-run")
        #expect(verbose.error.contains("[vintage] looking at \\u{1b}[1mRevolver\\u{1b}[0m"), "prefixed with its name, escaped: \(verbose.error)")
        #expect(!verbose.error.contains("\u{1b}"), "no control character reaches the terminal raw")

        let json = try lab.cli.run("import", input.path, "--dry-run", "--json")
        let entries = try #require((try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])?["plan"] as? [[String: Any]])
        #expect(entries.map { $0["outcome"] as? String } == ["dropped", "new", "dropped"])
        #expect(entries[0]["stage"] as? String == "vintage" && entries[0]["reason"] as? String == "released in 1957, before 1970")
        #expect((entries[2]["album"] as? [String: Any])?["title"] as? String == "Revolver")
        #expect(try lab.albums().isEmpty, "a dry run writes nothing")

        let imported = try lab.cli.run("import", input.path)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(try lab.albums().map { $0["title"] as? String } == ["Low"])
    }

    /// Each way a plugin program can break down, as a source or as a stage.
    enum Breakdown: String, CaseIterable {
        case crash, hang, garbage, longLine, otherProtocol, silentExit, stageCrash, stageCrashInADryRun

        /// Whether the plugin is a stage (else a source).
        var isStage: Bool { self == .stageCrash || self == .stageCrashInADryRun }

        /// What the `error:` line says about it.
        var says: String {
            switch self {
            case .crash, .stageCrash, .stageCrashInADryRun: "exited with status 1"
            case .hang: "did not answer within 1 second (plugins.timeoutSeconds)"
            case .garbage: "which is not a message of the protocol"
            case .longLine: "sent a line longer than limits.listBytes"
            case .otherProtocol: "speaks protocol version 3; this albumkit speaks versions 1 to 2"
            case .silentExit: "exited (status 0) before saying hello"
            }
        }
    }

    @Test(arguments: Breakdown.allCases)
    func aBrokenPluginFailsTheCommandAndLeavesNothingBehind(_ breakdown: Breakdown) throws {
        let lab = try PluginLab()
        defer { lab.remove() }
        let program = try lab.write("broken.py", PluginLab.brokenPlugin)
        let pids = lab.cli.folder.appendingPathComponent("pids")
        let kind = breakdown.isStage ? "stage" : "source"
        try lab.writeConfig("""
            plugins:
              timeoutSeconds: 1
              commands:
                - {name: bad, kind: \(kind), run: [python3, \(program.path), \(breakdown.rawValue), \(pids.path)]}
            limits: {listBytes: 50000}
            import:
              stages: [\(breakdown.isStage ? "validate, bad, covers" : "validate, covers")]
            """)
        let input = try lab.write("albums.json", #"[{"title": "Low", "artist": "David Bowie"}]"#)
        #expect(try lab.cli.run("init", "--starter").status == 0)
        let before = try lab.libraryDigest()

        let arguments = ["--events", "events.jsonl", "import", input.path] + (breakdown.isStage ? [] : ["--format", "bad"])
            + (breakdown == .stageCrashInADryRun ? ["--dry-run"] : [])
        let result = try lab.cli.run(arguments)
        #expect(result.status != 0)
        let errors = result.error.split(separator: "\n").filter { $0.lowercased().hasPrefix("error:") }
        #expect(errors.count == 1, "\(result.error)")
        #expect(errors.first?.contains("plugin 'bad'") == true && errors.first?.contains(breakdown.says) == true, "\(result.error)")
        if breakdown == .crash || breakdown.isStage {
            #expect(errors.first?.contains("RuntimeError: boom") == true, "its last words on standard error are quoted: \(result.error)")
        }
        let events = try lab.events("events.jsonl")
        let failed = events.filter { $0["event"] as? String == "plugin.failed" }
        #expect(failed.count == 1 && failed.first?["plugin"] as? String == "bad", "\(events)")
        #expect((failed.first?["reason"] as? String)?.contains(breakdown.says) == true)
        #expect(try lab.libraryDigest() == before, "the library folder is byte for byte as it was")

        let started = try String(contentsOf: pids, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        #expect(!started.isEmpty)
        #expect(breakdown != .hang || started.count == 2, "the hanging plugin started a child of its own")
        for pid in started { #expect(!RunningProcesses.isAlive(pid), "process \(pid) of the plugin is still alive") }
        if let leader = started.first { #expect(RunningProcesses.inGroup(leader).isEmpty, "nothing is left in the plugin's process group") }
    }

    @Test func anInputErrorFromASourceNamesTheInputAndThePlugin() throws {
        let lab = try PluginLab()
        defer { lab.remove() }
        try lab.writeConfig(lab.csvConfiguration(columns: "{title: Album, artist: Band}"))
        let csv = try lab.write("albums.csv", "Artist,Title\nNas,Illmatic\n")
        #expect(try lab.cli.run("init").status == 0)
        let result = try lab.cli.run("import", csv.path, "--format", "csv")
        #expect(result.status != 0)
        let error = try #require(result.error.split(separator: "\n").first { $0.hasPrefix("error:") })
        #expect(error.hasPrefix("error: \(csv.path): the header has no column"), "\(result.error)")
        #expect(error.contains("'Album'") && error.contains("'Band'") && error.hasSuffix("(plugin 'csv')"), "\(result.error)")
        #expect(try lab.albums().isEmpty)
    }

    @Test func aCoverFromASourceIsCheckedAndStoredWithItsAlbum() throws {
        let lab = try PluginLab()
        defer { lab.remove() }
        let art = lab.cli.folder.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 40)
        try png.write(to: art.appendingPathComponent("low.png"))
        try Data("not an image".utf8).write(to: art.appendingPathComponent("fake.png"))
        let configuration = lab.csvConfiguration(columns: "{title: Album, artist: Band, cover: Art}")
        try lab.writeConfig(configuration)
        let good = try lab.write("good.csv", "Band,Album,Art\nDavid Bowie,Low,art/low.png\n")
        let fake = try lab.write("fake.csv", "Band,Album,Art\nDavid Bowie,Heroes,art/fake.png\n")
        #expect(try lab.cli.run("init").status == 0)

        let outside = try lab.cli.run("import", good.path, "--format", "csv")
        #expect(outside.status != 0 && outside.error.contains("not inside the input or under covers.fileRoots"), "\(outside.error)")
        try lab.writeConfig(configuration + "\ncovers: {fileRoots: [\(art.path)]}\n")
        #expect(try lab.cli.run("import", fake.path, "--format", "csv").error.contains("not a JPEG, PNG, GIF or WebP image"))
        #expect(try lab.albums().isEmpty)

        let imported = try lab.cli.run("import", good.path, "--format", "csv")
        #expect(imported.status == 0, "\(imported.error)")
        let album = try #require(try lab.albums().first)
        #expect(album["cover"] as? String == "stored")
        #expect((album["coverUrl"] as? String)?.hasPrefix("covers/") == true)
    }

    @Test func aFetcherProgramAnswersForTheReferencesItHandles() throws {
        let lab = try PluginLab()
        defer { lab.remove() }
        let fetcher = try lab.write("archive.py", PluginLab.preamble + """
            import base64
            send({"type": "hello", "protocol": 1, "kind": "fetcher", "name": "archive", "version": "0.3"})
            receive()
            png = b"\\x89PNG\\r\\n\\x1a\\n" + bytes(40)
            while True:
                request = receive()
                if request is None:
                    break
                if request["reference"].startswith("https://archive.example/"):
                    send({"type": "cover", "data": base64.b64encode(png).decode()})
                else:
                    send({"type": "decline"})
            """)
        try lab.writeConfig("""
            plugins:
              commands:
                - {name: archive, kind: fetcher, run: [python3, \(fetcher.path)]}
            covers: {fetchers: [archive, bundle, file]}
            """)
        #expect(try lab.cli.run("init").status == 0)
        #expect(try lab.cli.run("add", "--title", "Low", "--artist", "David Bowie", "--cover", "https://archive.example/low.png").status == 0)
        #expect(try lab.cli.run("add", "--title", "Heroes", "--artist", "David Bowie", "--cover", "https://elsewhere.example/h.png").status == 0)
        _ = try lab.cli.run("covers", "fetch")
        let covers = try lab.albums().map { $0["cover"] as? String }
        #expect(covers == ["stored", "failed"], "the archive answers for its own references and declines the other")
        let plugins = try lab.cli.run("plugins").output
        #expect(plugins.split(separator: "\n").contains { $0.contains("archive —") && $0.contains("0.3") && $0.contains("process python3") }, "\(plugins)")
    }

    @Test func pluginSettingsAreCheckedAgainstWhatThePluginDeclares() throws {
        let lab = try PluginLab()
        defer { lab.remove() }
        try lab.configureGenreMap("tabel: {jazz: Cool jazz}")
        let input = try lab.write("albums.json", #"[{"title": "Kind of Blue", "artist": "Miles Davis", "genre": "jazz"}]"#)
        #expect(try lab.cli.run("init").status == 0)
        let result = try lab.cli.run("import", input.path)
        #expect(result.status != 0)
        let error = try #require(result.error.split(separator: "\n").first { $0.hasPrefix("error:") })
        #expect(error.hasPrefix("error: unknown key 'plugins.genre-map.tabel'"), "\(result.error)")
        #expect(error.contains("albumkit.yaml, line 5") && error.contains("did you mean 'plugins.genre-map.table'?"), "\(result.error)")
        #expect(try lab.albums().isEmpty)
    }

    @Test func pluginSettingsComeFromTheEnvironmentAndConfigShowSaysSo() throws {
        let lab = try PluginLab()
        defer { lab.remove() }
        try lab.configureGenreMap("table: {jazz: Bebop}")
        let input = try lab.write("albums.json", """
            [{"title": "Kind of Blue", "artist": "Miles Davis", "genre": "jazz"},
             {"title": "Giant Steps", "artist": "John Coltrane", "genre": "JAZZ"}]
            """)
        let environment = ["ALBUMKIT_PLUGINS_GENRE_MAP_TABLE": "jazz=Cool jazz", "ALBUMKIT_PLUGINS_GENRE_MAP_CASE_SENSITIVE": "true"]
        let shown = try lab.cli.run("config", "show", environment: environment).output
        let line = shown.split(separator: "\n").first { $0.hasPrefix("plugins.genre-map.table") }
        #expect(line?.contains("jazz=Cool jazz") == true && line?.contains("environment ALBUMKIT_PLUGINS_GENRE_MAP_TABLE") == true, "\(shown)")

        #expect(try lab.cli.run("init").status == 0)
        #expect(try lab.cli.run("import", input.path, environment: environment).status == 0)
        #expect(try lab.albums().map { $0["genre"] as? String } == ["Cool jazz", "JAZZ"], "the table and the declared caseSensitive both come from the environment")
    }

    @Test func everyConfigurationInTheDocsLoads() throws {
        let lab = try PluginLab()
        defer { lab.remove() }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
        var blocks: [String] = []
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path).filter { $0.hasSuffix(".md") }
        for document in ["README.md"] + docs.map({ "docs/\($0)" }) {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            for part in text.components(separatedBy: "```yaml\n").dropFirst() {
                blocks.append(part.components(separatedBy: "```")[0])
            }
        }
        #expect(blocks.count >= 3)
        for block in blocks {
            try lab.writeConfig(block)
            let shown = try lab.cli.run("config", "show")
            #expect(shown.status == 0, "\(block)\n\(shown.error)")
        }
    }
}

/// A sandbox for plugin tests: the CLI runner, its config file, the example programs.
struct PluginLab {
    let cli: CLIRunner

    init() throws { cli = try CLIRunner() }

    func remove() { cli.remove() }

    /// The path of a shipped example program.
    func example(_ name: String) -> String { Self.examples.appendingPathComponent(name).path }

    /// A configuration with `csv_source.py` as the source `csv`, reading `columns`.
    func csvConfiguration(columns: String) -> String {
        """
        plugins:
          commands:
            - {name: csv, kind: source, run: [python3, \(example("csv_source.py"))]}
          csv:
            columns: \(columns)

        """
    }

    /// Configures `genre_map.py` as the stage `genre-map` with `settings` (YAML lines).
    func configureGenreMap(_ settings: String) throws {
        try writeConfig("""
            plugins:
              commands:
                - {name: genre-map, kind: stage, run: [python3, \(example("genre_map.py"))]}
              genre-map:
                \(settings)
            import:
              stages: [validate, genre-map, covers]
            """)
    }

    /// Writes `albumkit.yaml` in the sandbox (the file `albumkit` finds there).
    func writeConfig(_ text: String) throws { _ = try write("albumkit.yaml", text) }

    /// Writes `text` to `name` in the sandbox.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let url = cli.folder.appendingPathComponent(name)
        try Data((text + "\n").utf8).write(to: url)
        return url
    }

    /// The albums `list --json` shows.
    func albums() throws -> [[String: Any]] {
        let listed = try cli.run("list", "--json")
        let object = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any]
        return object?["albums"] as? [[String: Any]] ?? []
    }

    /// Every event line of an `--events` file in the sandbox.
    func events(_ name: String) throws -> [[String: Any]] {
        let text = try String(contentsOf: cli.folder.appendingPathComponent(name), encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
    }

    /// Every file of the library folder with the SHA-256 of its bytes.
    func libraryDigest() throws -> [String: String] {
        var digests: [String: String] = [:]
        let walker = FileManager.default.enumerator(at: cli.libraryFolder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            let isFile = try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true
            digests[url.path] = isFile ? try runProgram("/usr/bin/sha256sum", [url.path]).output.prefix(64).description : "folder"
        }
        return digests
    }

    /// The folder of the shipped example programs (and their helper, `albumkit_plugin.py`).
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/plugins").standardizedFileURL

    /// What every test program starts with: `send` and `receive` from the examples' helper.
    static let preamble = """
        import json, sys
        sys.path.insert(0, \(String(reflecting: examples.path)))
        from albumkit_plugin import receive, send

        """

    /// A plugin that breaks down as its first argument says, after writing its process id
    /// (and that of any child it starts) to the file its second argument names.
    static let brokenPlugin = preamble + """
        import os, subprocess, time
        mode, pids = sys.argv[1], sys.argv[2]
        kind = "stage" if mode.startswith("stageCrash") else "source"
        def note(pid):
            with open(pids, "a") as handle:
                handle.write("%d\\n" % pid)
        note(os.getpid())
        if mode == "silentExit":
            sys.exit(0)
        send({"type": "hello", "protocol": 3 if mode == "otherProtocol" else 1, "kind": kind, "name": "broken", "version": "0"})
        receive()
        receive()
        if mode == "crash" or mode.startswith("stageCrash"):
            print("about to go wrong", file=sys.stderr)
            raise RuntimeError("boom")
        if mode == "hang":
            note(subprocess.Popen(["sleep", "600"]).pid)
            time.sleep(600)
        if mode == "garbage":
            sys.stdout.write("this is not json\\n")
        if mode == "longLine":
            sys.stdout.write('{"type": "album", "album": {"title": "' + "x" * 200000 + '", "artist": "A"}}\\n')
        sys.stdout.flush()
        sys.stdin.read()
        """
}

/// What `/proc` says about processes.
enum RunningProcesses {
    /// The fields of `/proc/PID/stat` after the command name: state, parent, group, …
    private static func stat(_ pid: Int32) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// Whether `pid` runs (a zombie, dead and waiting to be reaped, does not).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let fields = stat(pid) else { return false }
        return fields.first != "Z"
    }

    /// The living processes in process group `group`.
    static func inGroup(_ group: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let fields = stat(pid), fields.count > 2 else { return false }
            return fields[0] != "Z" && fields[2] == Substring(String(group))
        }
    }
}
