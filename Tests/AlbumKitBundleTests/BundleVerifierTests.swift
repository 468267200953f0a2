import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// `verify BUNDLE` on bad bundles: every problem is found in one reading, each named once.
@Suite struct BundleVerifierTests {
    /// A bundle with seven different problems (one of them noticed twice), made by Python's tarfile.
    @Test func everyProblemOfABadBundleIsReported() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var bundle = SampleBundle()
        let covers = bundle.covers.keys.sorted()
        bundle.covers[covers[1]] = Data("not the cover's bytes".utf8)
        let missing = "covers/" + String(repeating: "ab", count: 32) + ".png"
        bundle.albums += [
            ["id": "sample-1", "title": "Again", "artist": "Twice"],
            ["id": "ctrl", "title": "Bell\u{7}", "artist": "Noisy"],
            ["id": "lost", "title": "Lost", "artist": "Nobody", "coverUrl": missing],
        ]
        bundle.state = Data(#"{"version":1,"current":"nobody","undo":[],"redo":[]}"#.utf8)
        var entries = try bundle.entries()
        guard case .file(let sums) = entries.last!.kind else { throw FixtureError("no checksums") }
        let damaged = String(decoding: sums, as: UTF8.self).replacingOccurrences(
            of: #"[0-9a-f]{64}  manifest\.json"#, with: String(repeating: "0", count: 64) + "  manifest.json", options: .regularExpression)
        entries[entries.count - 1] = .file("checksums.sha256", damaged)
        let output = workspace.path("bad.tgz")
        try PythonArchive.write(entries, kind: "tgz", to: output)

        let problems = try await BundleVerifier.problems(in: output, limits: Limits())
        let entry = "\(output.path) entry"
        let expected = [
            "\(entry) manifest.json: albumCount is 6, but \(entry) albums.json lists 9 albums",
            "album \(entry) albums.json #7 'Again': id 'sample-1' is already used by \(entry) albums.json #2",
            "album \(entry) albums.json #8",
            "album \(entry) albums.json #9 'Lost': its cover \(missing) is missing",
            "\(entry) state.json: the current album 'nobody' is not in the library",
            "\(entry) \(covers[1]): the cover's bytes hash to \(SHA256Digest.hex(of: bundle.covers[covers[1]]!)), not to its name",
            // The cover refused above is missing for the album that names it.
            "album \(entry) albums.json #4 'Título 3 – 東京': its cover \(covers[1]) is missing",
            "\(entry) manifest.json: its SHA-256 is ",
        ]
        for phrase in expected {
            #expect(problems.filter { $0.hasPrefix(phrase) }.count == 1, "'\(phrase)' once in:\n\(problems.joined(separator: "\n"))")
        }
        #expect(problems.count == expected.count, "\(problems.joined(separator: "\n"))")
        #expect(problems.first { $0.hasPrefix("album \(entry) albums.json #8") }?.contains("control character") == true)
    }

    /// `checksums.sha256` lines in either case of hex, CRLF endings and binary mode are read as
    /// `sha256sum -c` reads them; a wrong digest is reported with both digests in lower case.
    @Test func checksumLinesAreReadAsSha256sumReadsThem() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var entries = try SampleBundle().entries()
        guard case .file(let sums) = entries.last!.kind else { throw FixtureError("no checksums") }
        var lines = String(decoding: sums, as: UTF8.self).split(separator: "\n").map(String.init)
        let manifest = lines.firstIndex { $0.hasSuffix("  manifest.json") }!
        let actual = String(lines[manifest].prefix(64))
        lines[manifest] = String(repeating: "AB", count: 32) + " *manifest.json"
        let albums = lines.firstIndex { $0.hasSuffix("  albums.json") }!
        lines[albums] = lines[albums].prefix(64).uppercased() + lines[albums].dropFirst(64)
        entries[entries.count - 1] = .file("checksums.sha256", lines.joined(separator: "\r\n") + "\r\n")
        let output = workspace.path("sums.tgz")
        try PythonArchive.write(entries, kind: "tgz", to: output)

        let problems = try await BundleVerifier.problems(in: output, limits: Limits())
        let says = String(repeating: "ab", count: 32)
        #expect(problems == ["\(output.path) entry manifest.json: its SHA-256 is \(actual), but checksums.sha256 line \(manifest + 1) says \(says)"])
    }

    /// A checksum list longer than one read of the archive (64 KiB) is checked line by line
    /// across the reads, whether it comes after the files it names (checked as each line
    /// arrives) or before them (checked at the end); a file it names that the bundle lacks is
    /// reported either way.
    @Test(arguments: [false, true])
    func aLongChecksumListIsCheckedWhereverItComes(listFirst: Bool) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var entries = try SampleBundle(albums: 6, covers: 800).entries()
        guard case .file(let sums) = entries.removeLast().kind, sums.count > 80 << 10 else { throw FixtureError("no long checksum list") }
        var lines = String(decoding: sums, as: UTF8.self).split(separator: "\n").map(String.init)
        // A damaged line past the first read, and a file named but left out of the archive.
        let damaged = lines.count - 2
        let actual = String(lines[damaged].prefix(64))
        let named = String(lines[damaged].dropFirst(66))
        lines[damaged] = String(repeating: "0", count: 64) + "  " + named
        let left = lines.count - 5
        let leftOut = String(lines[left].dropFirst(66))
        entries.removeAll { $0.name == Array(leftOut.utf8) }
        let list = TestEntry.file("checksums.sha256", lines.joined(separator: "\n") + "\n")
        entries = listFirst ? [list] + entries : entries + [list]
        let output = workspace.path("long.tgz")
        try PythonArchive.write(entries, kind: "tgz", to: output)

        let problems = try await BundleVerifier.problems(in: output, limits: Limits())
        #expect(problems.contains("\(output.path) entry checksums.sha256 line \(left + 1): names \(leftOut), which the bundle lacks"))
        #expect(problems.contains("\(output.path) entry \(named): its SHA-256 is \(actual), but checksums.sha256 line \(damaged + 1) says \(String(repeating: "0", count: 64))"))
        #expect(problems.filter { $0.contains("checksums.sha256 line") }.count == 2, "\(problems)")
    }

    /// A byte order mark before the first line is skipped; a name that is not UTF-8 is refused
    /// naming its line.
    @Test func aChecksumListWithAByteOrderMarkIsReadAndANameNotInUTF8IsRefused() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var entries = try SampleBundle().entries()
        guard case .file(let sums) = entries.last!.kind else { throw FixtureError("no checksums") }
        entries[entries.count - 1] = TestEntry("checksums.sha256", .file(Data([0xEF, 0xBB, 0xBF]) + sums))
        let marked = workspace.path("marked.tgz")
        try PythonArchive.write(entries, kind: "tgz", to: marked)
        #expect(try await BundleVerifier.problems(in: marked, limits: Limits()) == [])

        let broken = sums + Data(String(repeating: "0", count: 64).utf8) + Data([0x20, 0x20, 0x61, 0xFF, 0x0A])
        entries[entries.count - 1] = TestEntry("checksums.sha256", .file(broken))
        let output = workspace.path("broken.tgz")
        try PythonArchive.write(entries, kind: "tgz", to: output)
        let lines = sums.split(separator: 0x0A).count
        #expect(try await BundleVerifier.problems(in: output, limits: Limits())
            == ["\(output.path) entry checksums.sha256 line \(lines + 1): the name is not UTF-8 text"])
    }

    /// A hostile entry ends the reading; what was found before it is kept, and it comes last.
    @Test func aHostileEntryEndsTheReadingAsTheLastProblem() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var bundle = SampleBundle()
        bundle.manifest["albumCount"] = 2
        let output = workspace.path("hostile.tgz")
        try PythonArchive.write(try bundle.entries() + [TestEntry("covers/link.png", .symlink("/etc/passwd"))], kind: "tgz", to: output)
        let problems = try await BundleVerifier.problems(in: output, limits: Limits())
        #expect(problems == [
            "\(output.path) entry manifest.json: albumCount is 2, but \(output.path) entry albums.json lists 6 albums",
            "\(output.path) entry covers/link.png: is a symbolic link; an archive may hold only files and folders",
        ])
    }

    @Test func aMissingBundleIsOneProblem() async throws {
        let problems = try await BundleVerifier.problems(in: URL(fileURLWithPath: "/nonexistent/b.tgz"), limits: Limits())
        #expect(problems == ["/nonexistent/b.tgz: no such file or folder"])
    }
}
