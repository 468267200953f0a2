import AlbumKitTesting
import Foundation
import Testing

/// Text from an input never reaches the terminal raw: control characters in names, fields
/// and messages are shown escaped in errors, warnings and progress, while `--events`
/// stays JSON (escaped the JSON way).
@Suite struct EscapingTests {
    /// ESC ] 0 ; … BEL retitles a terminal window; ESC [ 2 J clears the screen.
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J"

    @Test func anAlbumFieldInAnErrorIsEscaped() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let list = cli.folder.appendingPathComponent("evil.json")
        let title = try JSONSerialization.data(withJSONObject: ["Evil\(Self.hostile)"], options: [.fragmentsAllowed])
        try Data(#"[{"title": \#(String(decoding: title, as: UTF8.self).dropFirst().dropLast()), "artist": "X"}]"#.utf8).write(to: list)
        let log = cli.folder.appendingPathComponent("events.jsonl")
        let result = try cli.run("import", list.path, "--events", log.path)
        #expect(result.status == 1)
        #expect(result.error.contains(#"Evil\e]0;pwned\u{7}\e[2J"#), "\(result.error.debugDescription)")
        #expect(!result.error.contains("\u{1B}") && !result.error.contains("\u{07}"))
        #expect(result.error.split(separator: "\n").count == 1)
        let events = try String(contentsOf: log, encoding: .utf8)
        #expect(events.contains(#"\u001b]0;pwned\u0007"#) && !events.contains("\u{1B}"), "\(events.debugDescription)")
    }

    @Test func aFileNameInAnErrorIsEscapedOnATerminalToo() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let name = "gone\(Self.hostile).json"
        let piped = try cli.run("import", name)
        #expect(piped.status != 0 && piped.error.hasPrefix("error: ") && piped.error.contains(#"gone\e]0;pwned\u{7}\e[2J.json"#), "\(piped.error.debugDescription)")
        #expect(!piped.error.contains("\u{1B}") && !piped.error.contains("\u{07}"))
        let shown = try TerminalSession(cli, ["import", name], columns: 200)
        let withoutOurColours = shown.screen.replacingOccurrences(of: "\u{1B}[1;31m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(!withoutOurColours.contains("\u{1B}") && !withoutOurColours.contains("\u{07}"), "\(shown.screen.debugDescription)")
        #expect(withoutOurColours.contains(#"gone\e]0;pwned\u{7}\e[2J.json"#))
    }

    @Test func anArchiveEntryNameInAnErrorIsEscaped() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let bundle = cli.folder.appendingPathComponent("evil.tar")
        let script = """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1], "w") as archive:
                for name, data in [("albums.json", b"[]"), ("../\\x1b]0;pwned\\x07", b"x")]:
                    info = tarfile.TarInfo(name)
                    info.size = len(data)
                    archive.addfile(info, io.BytesIO(data))
            """
        #expect(try runProgram("/usr/bin/env", ["python3", "-c", script, bundle.path]).status == 0)
        for command in ["import", "verify", "restore"] {
            let result = try cli.run(command, bundle.path)
            #expect(result.status != 0, "\(command)")
            // verify lists its problems on standard output, the others fail with the entry named.
            let shown = result.output + result.error
            #expect(shown.contains(#"\e]0;pwned\u{7}"#) && !shown.contains("\u{1B}") && !shown.contains("\u{07}"),
                "\(command): \(shown.debugDescription)")
        }
    }
}
