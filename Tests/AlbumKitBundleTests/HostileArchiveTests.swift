import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// Every hostile or damaged input of issue 3, each made by Python, GNU tar or bsdtar: the
/// import fails with one error naming the archive and the entry, nothing is written outside
/// the library, and the library is byte-for-byte as before.
@Suite struct HostileArchiveTests {
    /// Imports what `make` writes into `inputs/` and checks the refusal, into a library with a
    /// cover and into one with no covers folder (which it must not be left with either).
    private func expectRefused(
        entry: String?, limits: Limits = Limits(), _ make: (URL) throws -> URL
    ) async throws {
        for withCover in [true, false] {
            try await expectRefused(entry: entry, limits: limits, withCover: withCover, make)
        }
    }

    private func expectRefused(
        entry: String?, limits: Limits, withCover: Bool, _ make: (URL) throws -> URL
    ) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let fixture = try await LibraryFixture.make(in: workspace, withCover: withCover)
        let inputs = workspace.path("inputs")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let archive = try make(inputs)
        let libraryBefore = Workspace.contents(of: fixture.folder)
        let everythingBefore = Workspace.contents(of: workspace.url)
        do {
            let summary = try await fixture.importing([archive], limits: limits)
            Issue.record("\(archive.lastPathComponent) was imported: \(summary)")
        } catch let error as AlbumKitError {
            #expect(error.description.contains(archive.path), "the error must name the archive: \(error)")
            if let entry { #expect(error.description.contains(entry), "the error must name the entry '\(entry)': \(error)") }
        }
        #expect(Workspace.contents(of: fixture.folder) == libraryBefore, "the library changed")
        #expect(Workspace.contents(of: workspace.url) == everythingBefore, "files were written")
    }

    private func sampleWith(_ extra: [TestEntry], kind: String = "tgz", name: String = "bundle.tar.gz", gnu: Bool = false) -> (URL) throws -> URL {
        { folder in
            let output = folder.appendingPathComponent(name)
            try PythonArchive.write(try SampleBundle().entries() + extra, kind: kind, to: output, gnu: gnu)
            return output
        }
    }

    @Test(arguments: ["tgz", "zip"]) func dotDotPath(kind: String) async throws {
        try await expectRefused(entry: "../evil.txt", sampleWith([.file("../evil.txt", "x")], kind: kind, name: "b.\(kind)"))
    }

    @Test(arguments: ["tgz", "zip"]) func absolutePath(kind: String) async throws {
        try await expectRefused(entry: "/tmp/albumkit-evil.txt", sampleWith([.file("/tmp/albumkit-evil.txt", "x")], kind: kind, name: "b.\(kind)"))
    }

    @Test func symbolicLink() async throws {
        try await expectRefused(entry: "covers/link.png", sampleWith([TestEntry("covers/link.png", .symlink("/etc/passwd"))]))
    }

    @Test func hardLink() async throws {
        try await expectRefused(entry: "notes.txt", sampleWith([TestEntry("notes.txt", .hardlink("albums.json"))]))
    }

    @Test func deviceFile() async throws {
        try await expectRefused(entry: "covers/zero", sampleWith([TestEntry("covers/zero", .device)]))
    }

    @Test func fifo() async throws {
        try await expectRefused(entry: "pipe", sampleWith([TestEntry("pipe", .fifo)]))
    }

    @Test func coverOverTheDefaultLimit() async throws {
        let size = 20_000_001
        let name = "covers/\(SHA256Digest.hex(of: Data(count: size))).png"
        try await expectRefused(entry: name, sampleWith([TestEntry(name, .zeros(size))]))
    }

    @Test func albumListOverTheLimit() async throws {
        try await expectRefused(entry: "albums.json", limits: Limits(listBytes: 1000)) { folder in
            let output = folder.appendingPathComponent("big.tgz")
            try PythonArchive.write(try SampleBundle(albums: 100).entries(), kind: "tgz", to: output)
            return output
        }
    }

    /// Refused at `limits.archiveBytes` (the error names the entry), not after
    /// inflating all 400 MB.
    @Test func expansionBombStopsAtTheArchiveLimit() async throws {
        try await expectRefused(entry: "padding.bin", limits: Limits(archiveBytes: 50_000_000)) { folder in
            let output = folder.appendingPathComponent("bomb.tar.gz")
            try PythonArchive.write([TestEntry("padding.bin", .zeros(400_000_000))] + SampleBundle().entries(), kind: "tgz", to: output)
            let size = try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int ?? 0
            #expect(size < 2_000_000, "the bomb should be small packed, it is \(size) bytes")
            return output
        }
    }

    @Test(arguments: ["tgz", "txz", "tzst"]) func truncatedStream(kind: String) async throws {
        try await expectRefused(entry: nil) { folder in
            let data = try compressedSample(kind: kind, in: folder)
            let output = folder.appendingPathComponent("truncated.\(kind)")
            try data.prefix(data.count * 6 / 10).write(to: output)
            return output
        }
    }

    @Test(arguments: ["tgz", "txz", "tzst"]) func corruptStream(kind: String) async throws {
        try await expectRefused(entry: nil) { folder in
            var data = try compressedSample(kind: kind, in: folder)
            for index in (data.count / 2)..<(data.count / 2 + 64) { data[index] ^= 0x5A }
            let output = folder.appendingPathComponent("corrupt.\(kind)")
            try data.write(to: output)
            return output
        }
    }

    @Test func duplicateAlbumList() async throws {
        try await expectRefused(entry: "albums.json", sampleWith([.file("albums.json", "[]")]))
    }

    @Test func coverThatDoesNotMatchItsName() async throws {
        var bundle = SampleBundle()
        let name = bundle.covers.keys.sorted()[0]
        bundle.covers[name] = Data("not the right bytes".utf8)
        try await expectRefused(entry: name) { folder in
            let output = folder.appendingPathComponent("mismatch.tgz")
            try PythonArchive.write(try bundle.entries(checksums: false), kind: "tgz", to: output)
            return output
        }
    }

    @Test func wrongChecksumLine() async throws {
        try await expectRefused(entry: "albums.json") { folder in
            var entries = try SampleBundle().entries()
            guard case .file(let data) = entries.last!.kind else { throw FixtureError("no checksums") }
            let text = String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
                line.hasSuffix("  albums.json") ? String(repeating: "0", count: 64) + "  albums.json" : String(line)
            }.joined(separator: "\n")
            entries[entries.count - 1] = .file("checksums.sha256", text + "\n")
            let output = folder.appendingPathComponent("checksum.tgz")
            try PythonArchive.write(entries, kind: "tgz", to: output)
            return output
        }
    }

    /// A manifest with an unknown `version`, or an `albumCount` that differs from the list.
    @Test(arguments: ["version", "albumCount"]) func manifestThatDoesNotFit(_ key: String) async throws {
        var bundle = SampleBundle()
        bundle.manifest[key] = 99
        try await expectRefused(entry: "manifest.json") { folder in
            let output = folder.appendingPathComponent("\(key).tgz")
            try PythonArchive.write(try bundle.entries(), kind: "tgz", to: output)
            return output
        }
    }

    /// `albums.json` holding wrong types, a 10 MB string, 100 000 levels of nesting, invalid UTF-8.
    @Test(arguments: ["types", "long", "nesting", "utf8"]) func damagedAlbumList(_ damage: String) async throws {
        let list: Data =
            switch damage {
            case "types": Data(#"[{"title": 5, "artist": ["x"]}]"#.utf8)
            case "long": Data(#"[{"title": ""#.utf8) + Data(repeating: 0x61, count: 10_000_000) + Data(#"", "artist": "x"}]"#.utf8)
            case "nesting": Data(repeating: 0x5B, count: 100_000) + Data(repeating: 0x5D, count: 100_000)
            default: Data(#"[{"title": "caf"#.utf8) + Data([0xFF, 0xFE]) + Data(#"", "artist": "x"}]"#.utf8)
            }
        try await expectRefused(entry: "albums.json") { folder in
            let output = folder.appendingPathComponent("\(damage).tgz")
            try PythonArchive.write([TestEntry("albums.json", .file(list))], kind: "tgz", to: output)
            return output
        }
    }

    @Test func nameThatIsNotUTF8() async throws {
        try await expectRefused(entry: "entry #", sampleWith([TestEntry(rawName: Array("covers/caf".utf8) + [0xFF, 0x2E, 0x70, 0x6E, 0x67], .file(Data("x".utf8)))], gnu: true))
    }

    @Test func nameWithBackslash() async throws {
        try await expectRefused(entry: #"covers\evil.png"#, sampleWith([.file(#"covers\evil.png"#, "x")]))
    }

    @Test func emptyFile() async throws {
        try await expectRefused(entry: nil) { folder in
            let output = folder.appendingPathComponent("empty.tar.gz")
            try Data().write(to: output)
            return output
        }
    }

    @Test func randomBytesNamedTarGz() async throws {
        try await expectRefused(entry: nil) { folder in
            let output = folder.appendingPathComponent("random.tar.gz")
            try Data((0..<100_000).map { _ in UInt8.random(in: 0...255) }).write(to: output)
            return output
        }
    }

    /// A sample bundle with a large incompressible cover, compressed as `kind`.
    private func compressedSample(kind: String, in folder: URL) throws -> Data {
        var bundle = SampleBundle()
        let noise = Data((0..<300_000).map { _ in UInt8.random(in: 0...255) })
        bundle.covers["covers/\(SHA256Digest.hex(of: noise)).jpg"] = noise
        let tar = folder.appendingPathComponent("sample-\(kind).tar")
        try PythonArchive.write(try bundle.entries(), kind: kind == "tzst" ? "tar" : kind, to: tar)
        defer { try? FileManager.default.removeItem(at: tar) }
        guard kind == "tzst" else { return try Data(contentsOf: tar) }
        let zst = folder.appendingPathComponent("sample.tar.zst")
        try runProgram("/usr/bin/zstd", ["-q", "-f", tar.path, "-o", zst.path])
        defer { try? FileManager.default.removeItem(at: zst) }
        return try Data(contentsOf: zst)
    }
}
