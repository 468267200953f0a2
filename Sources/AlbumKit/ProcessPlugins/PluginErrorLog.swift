import Dispatch
import Foundation
import Logging
import Synchronization

/// Drains a plugin's standard error on a thread of its own (a plugin blocked on a full pipe
/// would look hung), logging each line at debug level prefixed with the plugin's name — what
/// `--verbose` shows — and keeping the last line for the error message if the plugin fails.
final class PluginErrorLog: Sendable {
    private let done = DispatchGroup()
    private let lastLine = Mutex<String?>(nil)
    /// The longest line logged at once; a longer one is logged in pieces.
    private static let lineLimit = 4096

    /// Starts draining `process`'s standard error; `name` prefixes every line.
    init(_ process: PluginProcess, name: String) {
        let logger = Logger(label: "albumkit.plugin")
        done.enter()
        DispatchQueue.global().async { [self] in
            defer { done.leave() }
            var pending = Data()
            func emit(_ bytes: Data) {
                let line = PluginText.shown(String(decoding: bytes.prefix(Self.lineLimit), as: UTF8.self), limit: Self.lineLimit)
                logger.debug("[\(name)] \(line)")
                if !line.allSatisfy(\.isWhitespace) { lastLine.withLock { $0 = line } }
            }
            while let bytes = try? process.receive(upTo: 16 * 1024, fromErrors: true, by: nil), !bytes.isEmpty {
                pending.append(bytes)
                while let newline = pending.firstIndex(of: 0x0A) {
                    emit(pending[pending.startIndex..<newline])
                    pending = Data(pending[(newline + 1)...])
                }
                if pending.count > Self.lineLimit {
                    emit(pending)
                    pending = Data()
                }
            }
            if !pending.isEmpty { emit(pending) }
        }
    }

    /// Waits (a little, at most) until the plugin's standard error is closed and every line
    /// is logged.
    func drain() { _ = done.wait(timeout: .now() + .seconds(1)) }

    /// The last line the plugin wrote to standard error, if any.
    var last: String? { lastLine.withLock { $0 } }
}
