import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// `ArchiveEntryReader`, the public streaming entry reader other plugins read archives with:
/// archives made by GNU tar, Python and bsdtar; entries, bytes, limits and hostile entries.
@Suite struct ArchiveEntryReaderTests {
    /// Every entry of `reader`: path, kind and bytes (folders map to nil).
    private func readEverything(_ reader: ArchiveEntryReader) throws -> [String: Data?] {
        var entries: [String: Data?] = [:]
        while let entry = try reader.next() {
            entries[entry.path] = entry.kind == .file ? try reader.readAll(limit: 1 << 20, limitName: "test") : nil
        }
        return entries
    }

    /// The sample bundle's files, and a tar.gz GNU tar made of them under `mybundle/`.
    private func sampleTarGz(in workspace: Workspace) throws -> (files: [String: Data], archive: URL) {
        let folder = workspace.path("made/mybundle")
        try SampleBundle().writeFolder(folder)
        let archive = workspace.path("sample.tar.gz")
        #expect(try runProgram("/bin/tar", ["czf", archive.path, "-C", workspace.path("made").path, "mybundle"]).status == 0)
        return (Workspace.contents(of: folder), archive)
    }

    @Test func readsEveryEntryOfATarGzMadeByTar() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (files, archive) = try sampleTarGz(in: workspace)
        let reader = try ArchiveEntryReader(file: archive, limits: Limits())
        let entries = try readEverything(reader)
        #expect(entries["mybundle"] == .some(nil), "the folder entry comes as a folder: \(entries.keys.sorted())")
        #expect(entries["mybundle/covers"] == .some(nil))
        let read = entries.compactMapValues { $0 }
        #expect(read == Dictionary(uniqueKeysWithValues: files.filter { !$0.key.hasSuffix("/") }.map { ("mybundle/\($0.key)", $0.value) }))
        #expect(reader.storedBytesRead == reader.storedSize, "the whole file was read")
        #expect(try reader.next() == nil, "the end stays the end")
    }

    @Test func entriesCarryTheirCheckedPathKindAndDeclaredSize() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = workspace.path("odd.tar")
        try PythonArchive.write(
            [.file("./a//b/./c.txt", "hello"), TestEntry("d/", .directory), .file("d/e.txt", "")], kind: "tar", to: output)
        let reader = try ArchiveEntryReader(contentsOf: output, limits: Limits())
        let first = try #require(try reader.next())
        #expect(first.path == "a/b/c.txt" && first.components == ["a", "b", "c.txt"] && first.fileName == "c.txt")
        #expect(first.kind == .file && first.declaredSize == 5 && first.number == 1)
        let folder = try #require(try reader.next())
        #expect(folder.path == "d" && folder.kind == .directory && folder.number == 2)
        let empty = try #require(try reader.next())
        #expect(empty.path == "d/e.txt" && empty.declaredSize == 0)
        #expect(try reader.readAll(limit: 10, limitName: "test").isEmpty)
        #expect(try reader.next() == nil)
    }

    /// A path is split at `/` bytes, as the file system splits it, even where a combining mark
    /// makes one character of the slash and what follows.
    @Test func aSlashBeforeACombiningMarkSeparates() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = workspace.path("marks.tar")
        try PythonArchive.write([.file("f/\u{301}g.txt", "x")], kind: "tar", to: output)
        let reader = try ArchiveEntryReader(contentsOf: output, limits: Limits())
        let entry = try #require(try reader.next())
        #expect(entry.components == ["f", "\u{301}g.txt"] && entry.fileName == "\u{301}g.txt")
    }

    @Test func readStreamsInChunksAndSkipLeavesTheRest() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let big = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let output = workspace.path("chunks.tgz")
        try PythonArchive.write([TestEntry("big.bin", .file(big)), TestEntry("skipped.bin", .file(big)), .file("last.txt", "end")], kind: "tgz", to: output)
        let reader = try ArchiveEntryReader(file: output, limits: Limits())
        _ = try reader.next()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        var collected = Data()
        var chunks = 0
        while true {
            let count = try reader.read(into: buffer)
            if count == 0 { break }
            #expect(count <= 4096)
            collected.append(contentsOf: buffer[0..<count])
            chunks += 1
        }
        #expect(collected == big && chunks >= 300_000 / 4096)
        #expect(try reader.next()?.path == "skipped.bin")
        try reader.skip()
        #expect(try reader.read(into: buffer) == 0, "after skip() nothing is left of the entry")
        #expect(try reader.next()?.path == "last.txt")
        #expect(try reader.readAll(limit: 100, limitName: "test") == Data("end".utf8))
        #expect(reader.unpackedBytes == 600_003)
    }

    @Test func readAllRefusesAnEntryOverItsLimit() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = workspace.path("limit.zip")
        try PythonArchive.write([.file("track.mp3", String(repeating: "x", count: 5000))], kind: "zip", to: output)
        let reader = try ArchiveEntryReader(file: output, limits: Limits())
        _ = try reader.next()
        let error = try #require(throws: AlbumKitError.self) { try reader.readAll(limit: 4999, limitName: "plugins.audio.maxTagBytes") }
        #expect(error.kind == .limitExceeded)
        #expect(error.description == "\(output.path) entry track.mp3: is more than 4999 bytes, the limit (plugins.audio.maxTagBytes); nothing was written")
    }

    /// Entries count against `limits.archiveBytes` by what they declare and what is read; a
    /// compressed stream counts as a whole, headers and padding included.
    @Test(arguments: ["tar", "txz"]) func theArchiveLimitCountsEveryEntry(kind: String) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = workspace.path("many.\(kind)")
        try PythonArchive.write((0..<5).map { TestEntry("part\($0).bin", .zeros(100_000)) }, kind: kind, to: output)
        let reader = try ArchiveEntryReader(file: output, limits: Limits(archiveBytes: 350_000))
        var skipped: [String] = []
        let error = try #require(throws: AlbumKitError.self) {
            while let entry = try reader.next() {
                skipped.append(entry.path)
                try reader.skip()
            }
        }
        #expect(error.kind == .limitExceeded)
        #expect(error.description.hasPrefix(output.path) && error.description.contains("the archive unpacks to more than 350000 bytes"), "\(error)")
        #expect(skipped.count <= 3)
        if kind == "tar" { #expect(error.description.hasPrefix("\(output.path) entry part3.bin: "), "the entry that passes the limit is named: \(error)") }
    }

    /// Each hostile entry is refused with the error the bundle reader gives for it.
    @Test(arguments: [
        (TestEntry("covers/link.png", .symlink("/etc/passwd")), "entry covers/link.png: is a symbolic link; an archive may hold only files and folders"),
        (TestEntry("notes.txt", .hardlink("albums.json")), "entry notes.txt: is a hard link; an archive may hold only files and folders"),
        (TestEntry("dev/zero", .device), "entry dev/zero: is a device file; an archive may hold only files and folders"),
        (TestEntry("pipe", .fifo), "entry pipe: is a FIFO; an archive may hold only files and folders"),
        (TestEntry.file("../evil.txt", "x"), "entry ../evil.txt: paths with '..' are refused"),
        (TestEntry.file("/etc/evil.txt", "x"), "entry /etc/evil.txt: absolute paths are refused"),
        // A combining mark after the slash makes one character of them, not one byte.
        (TestEntry.file("/\u{301}etc.txt", "x"), "entry /\u{301}etc.txt: absolute paths are refused"),
        (TestEntry.file("../\u{301}evil.txt", "x"), "entry ../\u{301}evil.txt: paths with '..' are refused"),
        (TestEntry.file(#"a\b.txt"#, "x"), #"entry a\b.txt: names holding '\' are refused"#),
        (TestEntry.file("albums.json", "again"), "entry albums.json: the archive holds this entry twice"),
        (TestEntry(rawName: Array("caf".utf8) + [0xFF], .file(Data("x".utf8))), "entry #2 ('caf\u{FFFD}'): its name is not valid UTF-8"),
    ])
    func hostileEntriesAreRefused(_ entry: TestEntry, _ message: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = workspace.path("hostile.tar.gz")
        try PythonArchive.write([.file("albums.json", "[]"), entry], kind: "tgz", to: output, gnu: true)
        let reader = try ArchiveEntryReader(file: output, limits: Limits())
        let error = try #require(throws: AlbumKitError.self) { try readEverything(reader) }
        #expect(error.kind == .unreadableInput)
        #expect(error.description == "\(output.path) \(message)")
        // The bundle reader (import) refuses it with the very same sentence.
        let fixture = try await LibraryFixture.make(in: workspace)
        let importError = await #expect(throws: AlbumKitError.self) { try await fixture.importing([output]) }
        #expect(importError?.description == error.description)
    }

    @Test func walksAFolderWithPathsRelativeToIt() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let folder = workspace.path("unpacked")
        try SampleBundle().writeFolder(folder)
        let entries = try readEverything(try ArchiveEntryReader(folder: folder, limits: Limits()))
        let expected = Workspace.contents(of: folder)
        #expect(Set(entries.keys) == Set(expected.keys.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }))
        #expect(entries.compactMapValues { $0 } == expected.filter { !$0.key.hasSuffix("/") })
    }

    @Test func readsAnArchiveHeldInMemory() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (files, archive) = try sampleTarGz(in: workspace)
        let reader = try ArchiveEntryReader(bytes: try Data(contentsOf: archive), name: "in-memory.tgz", limits: Limits())
        #expect(reader.input == "in-memory.tgz")
        #expect(try readEverything(reader).compactMapValues { $0 }.count == files.filter { !$0.key.hasSuffix("/") }.count)
    }

    @Test func peekLooksAtTheFirstEntriesOnly() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = workspace.path("album.tar.zst")
        let tar = workspace.path("album.tar")
        try PythonArchive.write(
            [TestEntry("Album/", .directory), TestEntry("Album/01.flac", .zeros(2_000_000)), TestEntry("Album/02.flac", .zeros(10)),
             TestEntry("Album/link", .symlink("/etc/passwd")), .file("Album/cover.jpg", "x")], kind: "tar", to: tar)
        #expect(try runProgram("/usr/bin/zstd", ["-q", tar.path, "-o", output.path]).status == 0)
        #expect(ArchiveEntryReader.peek(output, entries: 2).map(\.path) == ["Album", "Album/01.flac"])
        #expect(ArchiveEntryReader.peek(output, entries: 10).map(\.path) == ["Album", "Album/01.flac", "Album/02.flac"], "stops at the link")
        let garbage = workspace.path("garbage.tgz")
        try Data([0x1F, 0x8B] + (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: garbage)
        #expect(ArchiveEntryReader.peek(garbage, entries: 5).isEmpty)
        #expect(ArchiveEntryReader.peek(workspace.path("missing.tar"), entries: 5).isEmpty)
    }
}
