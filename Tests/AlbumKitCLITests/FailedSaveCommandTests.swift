import AlbumKitTesting
import Foundation
import Testing

/// A save that cannot write the library file (a full disk; here a file-size limit, which fails
/// the same write the same way) fails with one `error:` line and leaves the library folder as it
/// was: the library file unchanged and no history step file of its own behind.
@Suite struct FailedSaveCommandTests {
    @Test func aSaveThatCannotWriteTheLibraryLeavesNoStepBehind() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init", "--starter").status == 0)
        let folder = cli.libraryFolder
        let before = try Data(contentsOf: folder.appendingPathComponent("library.json"))
        let namesBefore = try names(in: folder)
        // One block (512 or 1024 bytes): a step file of one album fits, the library file does not.
        // XFSZ ignored, so the write fails with EFBIG instead of killing the process.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"trap '' XFSZ; ulimit -f 1; exec "$0" "$@""#, CLIRunner.binary.path,
                             "add", "--title", "Too Big To Save", "--artist", "Full Disk"]
        process.environment = cli.environment
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus != 0)
        #expect(message.split(separator: "\n").filter { $0.hasPrefix("error:") }.count == 1, "\(message)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("library.json")) == before)
        #expect(try names(in: folder) == namesBefore, "a failed save left files behind")
        #expect(try cli.run("verify").status == 0)
    }

    /// Every file under `folder` (an empty folder left is harmless), relative.
    private func names(in folder: URL) throws -> Set<String> {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        return Set(paths.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
        })
    }
}
