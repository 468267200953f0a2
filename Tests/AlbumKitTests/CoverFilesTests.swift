import AlbumKitTesting
import CFileSync
import Foundation
import Testing

@testable import AlbumKit

/// A cover file gets its name only once every byte is in it, so a process killed mid-write
/// leaves no half-written file under a cover's name; one left by a power cut is replaced.
@Suite struct CoverFilesTests {
    private let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    @Test func aFileBeingWrittenHasNoNameUntilItIsLinked() throws {
        let folder = try TemporaryFolder("cover-files")
        defer { folder.remove() }
        let descriptor = albumkit_open_unnamed(folder.url.path, 0o644)
        try #require(descriptor >= 0, "errno \(errno)")
        defer { close(descriptor) }
        try bytes.prefix(1000).withUnsafeBytes { try AtomicFile.writeAll(descriptor, $0, path: "unnamed") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "a file being written is visible")

        try bytes.dropFirst(1000).withUnsafeBytes { try AtomicFile.writeAll(descriptor, $0, path: "unnamed") }
        let path = folder.path("cover.png").path
        #expect(albumkit_link_unnamed(descriptor, path) == 0)
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    @Test func aTakenNameIsLeftAsItIs() throws {
        let folder = try TemporaryFolder("cover-files")
        defer { folder.remove() }
        let path = folder.path("cover.png").path
        try Data("there first".utf8).write(to: URL(fileURLWithPath: path))
        let descriptor = albumkit_open_unnamed(folder.url.path, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { try AtomicFile.writeAll(descriptor, $0, path: "unnamed") }

        let linked = albumkit_link_unnamed(descriptor, path)
        let code = errno
        #expect(linked == -1 && code == EEXIST)
        #expect(FileManager.default.contents(atPath: path) == Data("there first".utf8))
    }

    @Test func aCoverIsWrittenOnceAndAnEmptyLeftoverUnderItsNameIsReplaced() throws {
        let folder = try TemporaryFolder("cover-files")
        defer { folder.remove() }
        let key = CoverKey(bytes: bytes, fileExtension: "png")
        let path = CoverFiles.path(of: key, inFolder: folder.url.path)
        #expect(try CoverFiles.write(bytes, toPath: path))
        #expect(FileManager.default.contents(atPath: path) == bytes)
        #expect(try !CoverFiles.write(bytes, toPath: path), "the same bytes again must not count as new")

        try Data().write(to: URL(fileURLWithPath: path))
        #expect(try CoverFiles.write(bytes, toPath: path))
        #expect(FileManager.default.contents(atPath: path) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [key.fileName])
    }
}
