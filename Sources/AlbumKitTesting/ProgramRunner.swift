import Foundation

/// Runs `executable` with `arguments` (in `folder`, when given) and waits for it; returns its
/// exit status and its standard output and error together. For tests that make their inputs
/// with real tools (`tar`, `bsdtar`, `python3`). Throws when the program cannot start.
@discardableResult
public func runProgram(_ executable: String, _ arguments: [String], in folder: URL? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
