import AlbumKitTesting
import Foundation
import Testing

/// What a terminal shows: the `list` and `covers status` tables fitted to the width by
/// display width, colour only where it belongs, and import/export progress redrawn in
/// place on one line that fits 40 and 120 columns. Driven through a real pty (`script`),
/// widths judged by Python's `wcwidth`.
@Suite struct TerminalOutputTests {
    /// ``KnownLibrary`` and two albums whose titles are long, or emoji.
    private func library() throws -> CLIRunner {
        let cli = try KnownLibrary.make()
        for (title, artist) in [
            ("🎸 Guitar Heroes 🎸", "Various Artists"),
            ("The Rise and Fall of Ziggy Stardust and the Spiders from Mars", "David Bowie"),
        ] {
            _ = try cli.run("add", "--title", title, "--artist", artist, "--genre", "Glam rock", "--year", "1972")
        }
        _ = try cli.run("select", "1")
        return cli
    }

    @Test(arguments: [40, 120])
    func listFitsTheTerminalAndAlignsByDisplayWidth(_ columns: Int) throws {
        let cli = try library()
        defer { cli.remove() }
        let session = try TerminalSession(cli, ["list"], columns: columns)
        #expect(session.status == 0, "\(session.screen)")
        let lines = session.plain.split(separator: "\n").map(String.init)
        #expect(lines.count == 13, "\(session.screen)")
        let widths = try ReferenceWidth.of(lines)
        #expect(widths.allSatisfy { $0 <= columns }, "\(zip(widths, lines).map { "\($0) \($1)" })")
        #expect(lines.contains { $0.contains("…") } == (columns == 40), "cut with … only when it does not fit")
        #expect(lines.last?.contains(columns == 40 ? "The Ri" : "The Rise and Fall of Ziggy Stardust and the Spiders from Mars") == true)
        #expect(lines[0].contains("GENRE") == (columns == 120), "a 40-column terminal has no room for the genre")
        // The last column (cover states) starts at the same display column on every line,
        // CJK and emoji included.
        let prefixes = lines.map { String($0[..<$0.range(of: " ", options: .backwards)!.upperBound]) }
        #expect(Set(try ReferenceWidth.of(prefixes)).count == 1, "\(lines.joined(separator: "\n"))")
        // Positions are right-aligned.
        #expect(lines[9].dropFirst(3).hasPrefix(" 9  ") && lines[10].dropFirst(3).hasPrefix("10  "), "\(lines[9])\n\(lines[10])")
        #expect(session.screen.contains("\u{1B}[32mstored\u{1B}[0m") && session.screen.contains("\u{1B}[33mmissing\u{1B}[0m"))
        #expect(session.screen.contains("\u{1B}[1;31mfailed\u{1B}[0m"))
    }

    @Test func noColourWithNO_COLOROrWhenPiped() throws {
        let cli = try library()
        defer { cli.remove() }
        let session = try TerminalSession(cli, ["list"], columns: 120, environment: ["NO_COLOR": "1"])
        #expect(session.status == 0 && !session.screen.contains("\u{1B}"))
        let failing = try TerminalSession(cli, ["show", "99"], columns: 120, environment: ["NO_COLOR": "1"])
        #expect(failing.screen.hasPrefix("error: no album at position 99"))
        let coloured = try TerminalSession(cli, ["show", "99"], columns: 120)
        #expect(coloured.screen.hasPrefix("\u{1B}[1;31merror:\u{1B}[0m no album at position 99"), "\(coloured.screen)")
        let piped = try cli.run("list")
        #expect(!piped.output.contains("\u{1B}") && !piped.output.contains("\t") && !piped.output.contains("…"))
        #expect(!(try cli.run("show", "99")).error.contains("\u{1B}"))
    }

    /// A tab inside a field keeps the table's columns: it is listed as a space, not escaped.
    @Test func aTabInAFieldIsListedAsASpace() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)
        #expect(try cli.run("add", "--title", "Tab\there", "--artist", "A").status == 0)
        let listed = try cli.run("list").output
        #expect(listed.contains("Tab here") && !listed.contains("\\t") && !listed.contains("\t"), "\(listed)")
    }

    @Test(arguments: [40, 120])
    func coversStatusFitsTheTerminal(_ columns: Int) throws {
        let cli = try library()
        defer { cli.remove() }
        let session = try TerminalSession(cli, ["covers", "status"], columns: columns)
        let lines = session.plain.split(separator: "\n").map(String.init)
        #expect(lines.count == 14 && lines.last == "stored 5, missing 1, failed 1, none 5", "\(session.screen)")
        #expect(try ReferenceWidth.of(lines).allSatisfy { $0 <= columns })
        #expect(lines[0].hasPrefix(" #  COVER    TITLE"), "\(lines[0])")
        let piped = try cli.run("covers", "status").output
        let failed = try #require(piped.split(separator: "\n").first { $0.hasPrefix(" 8  failed   Station to Station") }, "\(piped)")
        #expect(failed.contains("file:///nonexistent/station.png ") && failed.contains("not under any of covers.fileRoots"))
        #expect(!piped.contains("\t"))
    }

    @Test(arguments: [40, 120])
    func progressIsRedrawnInPlaceAndFits(_ columns: Int) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)
        let bundle = try Self.bundleOfCovers(in: cli.folder, count: 40, bytes: 1 << 20)
        let session = try TerminalSession(cli, ["import", bundle.path], columns: columns)
        #expect(session.status == 0, "\(session.screen)")
        try Self.expectRedrawnInPlace(session.screen, verb: "importing", columns: columns, finalReading: "100%")
        let export = try TerminalSession(cli, ["export", "copy.tar.gz"], columns: columns)
        #expect(export.status == 0, "\(export.screen)")
        try Self.expectRedrawnInPlace(export.screen, verb: "exporting", columns: columns, finalReading: "40 covers")
        let piped = try cli.run("export", "again.tar")
        #expect(piped.error.split(separator: "\n").allSatisfy { $0.hasPrefix("exporting again.tar: ") }, "\(piped.error)")
        #expect(!piped.error.contains("\r") && !piped.error.contains("\u{1B}"))
    }

    /// `export.progress` counts the covers written so far in the event itself, so it need not
    /// come once per cover: over a 32-cover batch edge the count only grows and ends at every cover.
    @Test func exportProgressCarriesTheCoverCount() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)
        #expect(try cli.run("import", try Self.bundleOfCovers(in: cli.folder, count: 40, bytes: 100).path).status == 0)
        let export = try cli.run("--events", "-", "export", "copy.tar")
        #expect(export.status == 0, "\(export.error)")
        let counts = try export.error.split(separator: "\n").compactMap { line -> Int? in
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return event["event"] as? String == "export.progress" ? try #require(event["covers"] as? Int) : nil
        }
        #expect(counts.last == 40, "\(counts)")
        #expect(counts == counts.sorted(), "\(counts)")
        #expect(counts.count < 40, "one reading per cover: \(counts)")
    }

    /// The bar's line: drawn several times on one terminal line (`\r`, erase line, no line
    /// feed between), each drawing at most `columns - 1` wide, the readings sensible.
    private static func expectRedrawnInPlace(_ screen: String, verb: String, columns: Int, finalReading: String) throws {
        let line = try #require(screen.split(separator: "\n").first { $0.contains("\r\u{1B}[K\(verb)") }, "\(screen.debugDescription)")
        let drawings = line.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
        #expect(drawings.count >= 2, "redrawn at least once: \(drawings)")
        #expect(drawings.allSatisfy { $0.hasPrefix(verb) })
        #expect(try ReferenceWidth.of(drawings).allSatisfy { $0 <= columns - 1 }, "\(drawings)")
        #expect(drawings.last?.contains(finalReading) == true, "\(drawings)")
        for drawing in drawings {
            #expect(drawing.range(of: #"(^|[ ,])0 B(/s)?($|,)"#, options: .regularExpression) == nil, "a zero reading: \(drawing)")
            #expect(!drawing.contains("ETA 0s"), "\(drawing)")
        }
    }

    /// A `.tar.gz` bundle of `count` albums, each with its own cover of `bytes` random bytes
    /// behind a PNG signature, made by Python's `tarfile`.
    static func bundleOfCovers(in folder: URL, count: Int, bytes: Int) throws -> URL {
        let path = folder.appendingPathComponent("covers.tar.gz")
        let script = """
            import hashlib, io, json, os, sys, tarfile
            count, size, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
            albums, files = [], {}
            for i in range(count):
                data = b"\\x89PNG\\r\\n\\x1a\\n" + os.urandom(size)
                name = "covers/%s.png" % hashlib.sha256(data).hexdigest()
                files[name] = data
                albums.append({"id": "cover-%03d" % i, "title": "Album %d" % i, "artist": "Artist", "coverUrl": name})
            files["albums.json"] = json.dumps(albums).encode()
            with tarfile.open(out, "w:gz") as archive:
                for name in ["albums.json"] + sorted(n for n in files if n != "albums.json"):
                    info = tarfile.TarInfo(name)
                    info.size = len(files[name])
                    archive.addfile(info, io.BytesIO(files[name]))
            """
        let made = try runProgram("/usr/bin/env", ["python3", "-c", script, String(count), String(bytes), path.path])
        guard made.status == 0 else { throw KnownLibrary.Failure(made.output) }
        return path
    }
}
