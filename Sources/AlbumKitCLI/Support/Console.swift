import Foundation

/// Standard output and error for commands: every human-readable line goes out through here,
/// with text from inputs escaped (``TerminalText``), in colour only on a terminal that wants
/// it; tables and the progress bar ask it for the terminal's width.
enum Console {
    /// One of the two streams a command writes.
    enum Stream {
        case output, error

        var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
        var handle: FileHandle { self == .output ? .standardOutput : .standardError }
    }

    /// Prints `text` (one line or several) on standard output, each line escaped.
    static func out(_ text: String, terminator: String = "\n") {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
        Stream.output.handle.write(Data((lines.joined(separator: "\n") + terminator).utf8))
    }

    /// Prints lines that a renderer (``TextTable``) already made safe and styled.
    static func out(rendered lines: [String]) { emit(lines, to: .output) }

    /// Prints runs of lines, each line ending in a newline, that a renderer already made safe
    /// and styled (``TextTable/renderedRuns(width:colour:)``).
    static func out(renderedRuns runs: [[UInt8]]) {
        for run in runs where !run.isEmpty { Stream.output.handle.write(Data(run)) }
    }

    /// Prints `message` as one `error:` line on standard error.
    static func error(_ message: String) { emit([label("error:", .error, on: .error) + " " + TerminalText.escaped(message)], to: .error) }

    /// Prints `message` as one `warning:` line on standard error.
    static func warning(_ message: String) {
        emit([label("warning:", .warning, on: .error) + " " + TerminalText.escaped(message)], to: .error)
    }

    private static func emit(_ lines: [String], to stream: Stream) {
        // One buffer for every line and one write (`list --format` prints a line an album).
        var bytes = Data(capacity: lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in lines {
            bytes.append(contentsOf: line.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        stream.handle.write(bytes)
    }

    /// `text` in `style` when `stream` shows colour.
    static func label(_ text: String, _ style: TerminalStyle, on stream: Stream) -> String {
        usesColour(stream) ? style.apply(to: text) : text
    }

    /// Whether `stream` is a terminal.
    static func isTerminal(_ stream: Stream) -> Bool { isatty(stream.descriptor) == 1 }

    /// Whether standard error is a terminal (progress bars go there).
    static var errorIsTerminal: Bool { isTerminal(.error) }

    /// Whether `stream` gets colour: a terminal, `NO_COLOR` unset or empty, `TERM` not `dumb`.
    static func usesColour(_ stream: Stream) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        return isTerminal(stream) && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The width of the terminal `stream` is, in columns; nil when it is not a terminal.
    static func width(_ stream: Stream) -> Int? {
        guard isTerminal(stream) else { return nil }
        var size = winsize()
        guard ioctl(stream.descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Whether a question can be asked: standard input and standard error are terminals.
    static var canAsk: Bool { isatty(STDIN_FILENO) == 1 && isTerminal(.error) }

    /// Asks `question` on the terminal and returns whether the answer was yes (`y`, `yes`);
    /// anything else, or the end of input, is no.
    static func confirm(_ question: String) -> Bool {
        FileHandle.standardError.write(Data((TerminalText.escaped(question) + " [y/N] ").utf8))
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

/// `print` inside the commands: through ``Console/out(_:terminator:)``, so that no command
/// can write a line with raw control characters, whichever way it prints. (Shadows the
/// standard library's within AlbumKitCLI; `Swift.print` is still there for text that must
/// pass unchanged, such as a completion script.)
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Console.out(items.map { "\($0)" }.joined(separator: separator), terminator: terminator)
}
