import AlbumKit
import Foundation
import Synchronization

/// Progress of long work (import, export): a bar redrawn in place when standard error is a
/// terminal, plain lines at most once a second otherwise. A hub subscriber like any other.
final class ProgressDisplay: Sendable {
    private struct State {
        var started = ContinuousClock.now
        var lastDrawn: ContinuousClock.Instant?
        var drewBar = false
        var coversRequested = 0
        var coversDone = 0
    }

    private let terminal = Console.errorIsTerminal
    private let state = Mutex(State())

    /// Subscribes to `hub`.
    func attach(to hub: NotificationHub) -> HubSubscription {
        hub.subscribe { [self] event in handle(event) }
    }

    private func handle(_ event: LibraryEvent) {
        switch event {
        case .importStarted, .exportStarted:
            state.withLock { $0 = State() }
        case .importProgress(let input, let albums, let read, let total):
            show(verb: "importing", name: input, albums: albums, done: read, total: total, unit: .bytes)
        case .exportProgress(let path, let albums, _, let written):
            show(verb: "exporting", name: path, albums: albums, done: written, total: nil, unit: .bytes)
        case .coverRequested:
            state.withLock { $0.coversRequested += 1 }
        case .coverFetched, .coverCached, .coverFailed:
            let (done, total) = state.withLock { state in
                state.coversDone += 1
                return (state.coversDone, state.coversRequested)
            }
            show(verb: "fetching covers", name: "", albums: done, done: Int64(done), total: Int64(total), unit: .count)
            if done == total { endLine() }
        case .importFinished, .exportFinished, .importFailed:
            endLine()
        default:
            break
        }
    }

    /// Ends a bar drawn in place, so the next output starts on its own line.
    private func endLine() {
        let drewBar = state.withLock { state in
            defer { state.drewBar = false }
            return state.drewBar
        }
        if drewBar { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// What `done` and `total` count.
    private enum Unit {
        case bytes, count

        func format(_ value: Int64) -> String {
            self == .count ? String(value) : ProgressDisplay.bytes(value)
        }
    }

    private func show(verb: String, name: String, albums: Int, done: Int64, total: Int64?, unit: Unit) {
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            let finished = total.map { done >= $0 } ?? false
            if let last = state.lastDrawn, now - last < (terminal ? .milliseconds(100) : .seconds(1)), !finished { return nil }
            state.lastDrawn = now
            state.drewBar = state.drewBar || terminal
            let seconds = max(Double((now - state.started).components.attoseconds) / 1e18 + Double((now - state.started).components.seconds), 0.001)
            let rate = Double(done) / seconds
            var text = name.isEmpty ? "\(verb): " : "\(verb) \((name as NSString).lastPathComponent): \(albums) albums, "
            text += unit.format(done)
            if let total, total > 0 {
                let fraction = min(Double(done) / Double(total), 1)
                let filled = Int(fraction * 24)
                let eta = rate > 0 ? Int(Double(total - done) / rate) : 0
                text = "[\(String(repeating: "#", count: filled))\(String(repeating: " ", count: 24 - filled))] \(Int(fraction * 100))% " + text
                    + " of \(unit.format(total)), \(unit.format(Int64(rate)))/s, ETA \(eta)s"
            } else {
                text += ", \(unit.format(Int64(rate)))/s"
            }
            return text
        }
        guard let line else { return }
        FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
    }

    fileprivate static func bytes(_ count: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }
}
