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
        let (status, message) = try run(cli, fileBlocks: 1, "add", "--title", "Too Big To Save", "--artist", "Full Disk")

        #expect(status != 0)
        #expect(message.split(separator: "\n").filter { $0.hasPrefix("error:") }.count == 1, "\(message)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("library.json")) == before)
        #expect(try names(in: folder) == namesBefore, "a failed save left files behind")
        #expect(try cli.run("verify").status == 0)
    }

    /// An import whose cover write fails halfway (a full disk; here a file-size limit) leaves
    /// no part of the cover under its name — a later restore would take such a file for the
    /// cover — and the next import stores it whole. (A cover file is named only once whole, so
    /// a kill in the middle of the write leaves nothing either: `make torture`.)
    @Test func anImportWhoseCoverWriteFailsLeavesNoPartOfIt() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)
        let bundle = try TerminalOutputTests.bundleOfCovers(in: cli.folder, count: 1, bytes: 400_000)
        let (status, message) = try run(cli, fileBlocks: 200, "import", bundle.path)

        #expect(status != 0)
        #expect(message.contains("File too large"), "\(message)")
        let covers = cli.libraryFolder.appendingPathComponent("covers")
        let named = (try? FileManager.default.contentsOfDirectory(atPath: covers.path)) ?? []
        #expect(named.isEmpty, "the failed write left \(named)")
        #expect(try cli.run("import", bundle.path).status == 0)
        #expect(try cli.run("verify").status == 0)
    }

    /// An export whose compressed archive cannot be written whole (a full disk; here a file-size
    /// limit) fails with one `error:` line that says why, not only that a write failed, and
    /// leaves nothing in the folder it was to be written to.
    @Test(arguments: ["tar.zst", "tar.gz"]) func anExportThatCannotWriteItsArchiveSaysWhy(_ ending: String) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)
        let bundle = try TerminalOutputTests.bundleOfCovers(in: cli.folder, count: 4, bytes: 400_000)
        #expect(try cli.run("import", bundle.path).status == 0)
        let out = cli.folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let (status, message) = try run(cli, fileBlocks: 400, "export", out.appendingPathComponent("backup.\(ending)").path)

        #expect(status != 0)
        #expect(message.split(separator: "\n").filter { $0.hasPrefix("error:") }.count == 1, "\(message)")
        #expect(message.contains("File too large"), "\(message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    /// Runs albumkit with no file larger than `fileBlocks` blocks (`ulimit -f`) and XFSZ
    /// ignored, so a longer write fails with EFBIG instead of killing the process; its exit
    /// status and standard error.
    private func run(_ cli: CLIRunner, fileBlocks: Int, _ arguments: String...) throws -> (status: Int32, message: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"trap '' XFSZ; ulimit -f \#(fileBlocks); exec "$0" "$@""#, CLIRunner.binary.path] + arguments
        process.environment = cli.environment
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
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
