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

    /// Asks `question` on the terminal and returns whether the answer was yes; false at once
    /// when standard input or error is not a terminal (a script must say --force or --yes).
    static func confirm(_ question: String) -> Bool {
        guard isatty(STDIN_FILENO) == 1, errorIsTerminal else { return false }
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        return ["y", "yes"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
    }

    /// Whether standard error is a terminal (progress bars go there).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
