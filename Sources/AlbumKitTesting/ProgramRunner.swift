import Foundation

/// Runs `executable` with `arguments` in `folder` (the temporary folder when none is given, so
/// that the program never depends on the test process's own working folder: `psql` refuses to
/// start in one that is gone) and waits for it; returns its exit status and its standard output
/// and error together. For tests that make their inputs with real tools (`tar`, `bsdtar`,
/// `python3`, `psql`). Throws when the program cannot start.
@discardableResult
public func runProgram(_ executable: String, _ arguments: [String], in folder: URL? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = folder ?? FileManager.default.temporaryDirectory
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
