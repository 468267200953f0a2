import Foundation

/// Runs the built `albumkit` binary in a sandbox of its own: a fresh folder as working
/// directory, HOME and XDG folders inside it, so no test touches the user's library.
public struct CLIRunner: Sendable {
    /// What one run printed and returned.
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
        public let error: String
    }

    /// The sandbox folder: working directory and home of every run.
    public let folder: URL
    /// The environment every run gets (extra variables may be added per run).
    public var environment: [String: String]

    /// A new sandbox.
    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumkit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        environment = [
            "HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "PATH": "/usr/bin:/bin",
        ].merging(Self.sanitizerOptions) { $1 }
    }

    /// The sanitizer settings of this test run (`ASAN_OPTIONS` …), passed on so that a
    /// sanitized `albumkit` reports the way the sanitized tests do (RELIABILITY.md).
    private static var sanitizerOptions: [String: String] {
        ProcessInfo.processInfo.environment.filter { ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key) }
    }

    /// The default library folder of this sandbox.
    public var libraryFolder: URL { folder.appendingPathComponent("data/albumkit") }

    /// Deletes the sandbox.
    public func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Runs `albumkit ARGUMENTS` and waits for it.
    @discardableResult
    public func run(_ arguments: String..., environment extra: [String: String] = [:]) throws -> Result {
        try run(arguments, environment: extra)
    }

    /// Runs `albumkit ARGUMENTS` and waits for it.
    @discardableResult
    public func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
        try start(arguments, environment: extra).wait()
    }

    /// Starts `albumkit ARGUMENTS` without waiting.
    public func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = environment.merging(extra) { $1 }
        let output = folder.appendingPathComponent(".out-\(UUID().uuidString)")
        let error = folder.appendingPathComponent(".err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: error.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: error)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, output: output, error: error)
    }

    /// A started `albumkit`.
    public struct Running {
        /// The running `albumkit` (to signal it, for instance).
        public let process: Process
        let output: URL
        let error: URL

        /// Waits for the process and returns what it printed.
        public func wait() throws -> Result {
            process.waitUntilExit()
            defer {
                try? FileManager.default.removeItem(at: output)
                try? FileManager.default.removeItem(at: error)
            }
            return Result(
                status: process.terminationStatus, output: try String(contentsOf: output, encoding: .utf8),
                error: try String(contentsOf: error, encoding: .utf8))
        }
    }

    /// The `albumkit` executable: `$ALBUMKIT_BIN`, or the one built beside this test bundle.
    public static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["ALBUMKIT_BIN"] { return URL(fileURLWithPath: path) }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("albumkit")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug/albumkit").standardizedFileURL
    }()
}
