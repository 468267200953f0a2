import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// RAR files compressed by RAR itself, from libarchive's public test suite. They are kept
/// outside the repository (see the folder's README); CI, which lacks them, skips these tests
/// with the reason below and relies on ``RarWriter``'s stored archives instead.
@Suite(.enabled(if: RarFixtures.available, "RAR fixtures absent: \(RarFixtures.folder.path) holds libarchive's RAR test files (see its README)"))
struct RarFixtureTests {

    /// Every file of `archive`, as `ArchiveEntryReader` reads it.
    private func read(_ archive: URL) throws -> [String: Data] {
        let reader = try ArchiveEntryReader(file: archive, limits: Limits())
        var files: [String: Data] = [:]
        while let entry = try reader.next() {
            if entry.kind == .file { files[entry.path] = try reader.readAll(limit: 1 << 20, limitName: "test") }
        }
        return files
    }

    /// Compressed RAR v5 entries unpack to the size and CRC-32 that 7-Zip lists for them
    /// (Debian's 7-Zip lists RAR headers but lacks the RAR codec; Python computes the CRCs).
    @Test(arguments: ["test_read_format_rar5_compressed.rar", "test_read_format_rar5_stored.rar", "test_read_format_rar5_multiple_files.rar"])
    func compressedEntriesMatchWhat7ZipLists(_ name: String) throws {
        let archive = RarFixtures.folder.appendingPathComponent(name)
        try #require(FileManager.default.fileExists(atPath: archive.path), "\(name) is missing from \(RarFixtures.folder.path)")
        let listing = try runProgram("/usr/bin/7z", ["l", "-slt", archive.path]).output
        var expected: [String: String] = [:]
        var path: String?
        for line in listing.split(separator: "\n") {
            if line.hasPrefix("Path = ") { path = String(line.dropFirst(7)) }
            if line.hasPrefix("CRC = "), let path { expected[path] = line.dropFirst(6).uppercased() }
        }
        let workspace = try Workspace()
        defer { workspace.remove() }
        var actual: [String: String] = [:]
        for (entry, bytes) in try read(archive) {
            let file = workspace.path("entry")
            try bytes.write(to: file)
            let crc = try runProgram("/usr/bin/env", ["python3", "-c", "import sys, zlib; print('%08X' % zlib.crc32(open(sys.argv[1], 'rb').read()))", file.path])
            actual[entry] = crc.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(!expected.isEmpty)
        #expect(actual == expected)
    }

    /// RAR links (v4 and v5, symbolic and hard) are refused like tar's.
    @Test(arguments: [
        ("test_read_format_rar.rar", "entry testlink: is a symbolic link"),
        ("test_read_format_rar5_symlink.rar", "entry symlink.txt: is a symbolic link"),
        ("test_read_format_rar5_hardlink.rar", "entry hardlink.txt: is a hard link"),
    ])
    func linksAreRefused(_ name: String, _ message: String) throws {
        let archive = RarFixtures.folder.appendingPathComponent(name)
        let error = try #require(throws: AlbumKitError.self) { try read(archive) }
        #expect(error.description.hasPrefix("\(archive.path) \(message)"), "\(error)")
    }
}

/// Where libarchive's RAR test files are kept on this machine.
enum RarFixtures {
    static let folder = URL(fileURLWithPath: "/work/shared/fixtures/libarchive-rar")
    static var available: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("test_read_format_rar5_compressed.rar").path) }
}
