import Foundation

/// Standard output and error for commands.
enum Console {
    /// Prints `message` as an `error:` line on standard error.
    static func error(_ message: String) { printError("error: \(message)") }

    /// Prints `message` as a `warning:` line on standard error.
    static func warning(_ message: String) { printError("warning: \(message)") }

    /// Prints a line to standard error.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Whether standard error is a terminal (progress bars go there).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
