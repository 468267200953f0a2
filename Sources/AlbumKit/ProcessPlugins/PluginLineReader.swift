import Foundation

/// Splits a plugin's standard output into lines, never holding more than one line of at most
/// `limit` bytes (plus one read's worth): a line that grows past the limit stops the reading
/// there, however much more the plugin would send.
struct PluginLineReader {
    /// What the next read found.
    enum Next: Equatable {
        case line(Data)
        /// The plugin closed its output (it exited).
        case end
        /// A line grew past the limit without ending.
        case tooLong
    }

    /// The most bytes one line may hold (`limits.listBytes`).
    let limit: Int
    /// How many lines have been read, for messages ("line 3").
    private(set) var lineNumber = 0
    /// Bytes read and not yet handed out start at `start`; `scanned` marks how far past it
    /// no newline was found.
    private var buffer = Data()
    private var start = 0
    private var scanned = 0
    private var ended = false

    private static let chunk = 64 * 1024

    init(limit: Int) { self.limit = limit }

    /// The next line (without its newline) from `process`, waiting until `deadline`. A last
    /// line without a newline counts as a line.
    mutating func next(from process: PluginProcess, by deadline: ContinuousClock.Instant) throws(PluginProcess.Failure) -> Next {
        while true {
            if let newline = buffer[(start + scanned)...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                scanned = 0
                guard line.count <= limit else { return .tooLong }
                lineNumber += 1
                return .line(Data(line))
            }
            scanned = buffer.count - start
            guard scanned <= limit else { return .tooLong }
            if ended {
                guard scanned > 0 else { return .end }
                defer { start = buffer.count; scanned = 0 }
                lineNumber += 1
                return .line(Data(buffer[start...]))
            }
            let bytes = try process.receive(upTo: Self.chunk, by: deadline)
            if bytes.isEmpty {
                ended = true
            } else {
                // Drop what was handed out before growing, so the buffer holds one line at most.
                if start > 0 {
                    buffer.removeSubrange(0..<start)
                    start = 0
                }
                buffer.append(bytes)
            }
        }
    }
}
