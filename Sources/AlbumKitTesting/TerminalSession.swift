import Foundation

/// Runs the built `albumkit` on a real pseudo-terminal of a given width (util-linux
/// `script`, the terminal size set with `stty`), in a `CLIRunner`'s sandbox, typing `input`.
public struct TerminalSession {
    /// What the terminal showed (standard output and error together), with the pty's
    /// `\r\n` line ends turned back into `\n` (a lone `\r` is the program's own).
    public let screen: String
    /// Its exit status.
    public let status: Int32

    /// Runs `arguments` on a terminal `columns` wide and waits for the end.
    public init(_ cli: CLIRunner, _ arguments: [String], columns: Int, input: String = "", environment: [String: String] = [:]) throws {
        let command = ([CLIRunner.binary.path] + arguments).map(Self.quoted).joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", "stty cols \(columns) rows 50; exec \(command)", "/dev/null"]
        process.currentDirectoryURL = cli.folder
        process.environment = cli.environment.merging(["TERM": "xterm-256color"].merging(environment) { $1 }) { $1 }
        let output = Pipe()
        let typed = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = typed
        try process.run()
        typed.fileHandleForWriting.write(Data(input.utf8))
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? typed.fileHandleForWriting.close()
        screen = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        status = process.terminationStatus
    }

    /// The screen without colour sequences.
    public var plain: String { screen.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) }

    private static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
