import AlbumKit
import Foundation
import Synchronization

/// Progress of long work (import, restore, export, cover fetching, enrich): on a terminal one line redrawn in
/// place (`\r`, erase line) that fits the terminal's width whatever it is, at most ten
/// times a second; otherwise plain lines at most once a second. A hub subscriber like any
/// other. Readings are only shown once they mean something: no rate before a second has
/// passed or while nothing was counted, no ETA before two seconds and 5 %.
final class ProgressDisplay: Sendable {
    private struct State {
        var started = ContinuousClock.now
        var lastDrawn: ContinuousClock.Instant?
        var drewBar = false
        var coversRequested = 0
        var coversDone = 0
        var coversExported = 0
        var enrichTotal = 0
        var enrichDone = 0
    }

    private let terminal = Console.errorIsTerminal
    private let state = Mutex(State())

    /// Subscribes to `hub`, to the events ``handle(_:)`` shows: not to those an import makes
    /// for each album, which the library then need not read back to make (BENCHMARKS.md).
    func attach(to hub: NotificationHub) -> HubSubscription {
        hub.subscribe(to: Self.shown) { [self] event in _ = handle(event) }
    }

    /// The names of the events ``handle(_:)`` shows: those its switch does not pass over
    /// (ProgressDisplayTests holds the two together).
    static let shown: Set<String> = [
        "import.started", "export.started", "restore.started", "import.progress", "restore.progress", "export.progress",
        "cover.requested", "cover.fetched", "cover.cached", "cover.failed", "export.finished", "enrich.started",
        "enrich.albumEnriched", "import.finished", "import.failed", "restore.finished", "restore.failed", "enrich.finished",
    ]

    /// Shows what `event` tells; false when it passes the event over (it is not in ``shown``).
    func handle(_ event: LibraryEvent) -> Bool {
        switch event {
        case .importStarted, .exportStarted, .restoreStarted:
            state.withLock { $0 = State() }
        case .importProgress(let input, let albums, let read, let total):
            show(ProgressReading(verb: "importing", name: input, albums: albums, done: read, total: total, unit: .bytes))
        case .restoreProgress(let input, let albums, let read, let total):
            show(ProgressReading(verb: "restoring", name: input, albums: albums, done: read, total: total, unit: .bytes))
        case .exportProgress(let path, let albums, _, let covers, let written):
            state.withLock { $0.coversExported = covers }
            show(ProgressReading(verb: "exporting", name: path, albums: albums, covers: covers, done: written, total: nil, unit: .bytes))
        case .coverRequested:
            state.withLock { $0.coversRequested += 1 }
        case .coverFetched, .coverCached, .coverFailed:
            let (done, total) = state.withLock { state in
                state.coversDone += 1
                return (state.coversDone, state.coversRequested)
            }
            show(ProgressReading(verb: "fetching covers", name: "", albums: nil, done: Int64(done), total: Int64(total), unit: .count))
            if done == total { endLine() }
        case .exportFinished(let path, let albums, let written):
            // The last reading must show every cover the last progress counted.
            let covers = state.withLock { $0.coversExported }
            show(ProgressReading(verb: "exporting", name: path, albums: albums, covers: covers, done: written, total: nil, unit: .bytes), force: true)
            endLine()
        case .enrichStarted(let albums):
            state.withLock { $0 = State(); $0.enrichTotal = albums }
        case .albumEnriched:
            let (done, total) = state.withLock { state in
                state.enrichDone += 1
                return (state.enrichDone, state.enrichTotal)
            }
            show(ProgressReading(verb: "enriching", name: "", albums: nil, done: Int64(done), total: Int64(total), unit: .count))
        case .importFinished, .importFailed, .restoreFinished, .restoreFailed, .enrichFinished:
            endLine()
        // Named, not `default`: an event added to LibraryEvent must be placed here or above
        // (and then in ``shown``) before this compiles.
        case .albumAdded, .albumRemoved, .albumUpdated, .albumMoved, .saved, .stateRestored, .albumImported,
            .storageSwitched, .changedElsewhere, .stageFinished, .migrateStarted, .migrateProgress, .migrateFinished,
            .migrateFailed, .pluginFailed:
            return false
        }
        return true
    }

    /// Ends a bar drawn in place, so the next output starts on its own line.
    private func endLine() {
        let drewBar = state.withLock { state in
            defer { state.drewBar = false }
            return state.drewBar
        }
        if drewBar { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func show(_ reading: ProgressReading, force: Bool = false) {
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            let finished = force || reading.total.map { reading.done >= $0 } ?? false
            if let last = state.lastDrawn, now - last < (terminal ? .milliseconds(100) : .seconds(1)), !finished { return nil }
            // Plain lines are for long work: nothing for work done within its first second.
            if !terminal, now - state.started < .seconds(1) { return nil }
            state.lastDrawn = now
            state.drewBar = state.drewBar || terminal
            let elapsed = now - state.started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return terminal ? reading.bar(seconds: seconds, width: Console.width(.error) ?? 80) : reading.plain(seconds: seconds)
        }
        guard let line else { return }
        FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
    }
}

/// One reading of long work, and the line that shows it.
struct ProgressReading {
    /// What `done` and `total` count.
    enum Unit {
        case bytes, count

        func format(_ value: Int64) -> String { self == .count ? String(value) : ByteCount.format(value) }
    }

    var verb: String
    var name: String
    var albums: Int?
    var covers: Int?
    var done: Int64
    var total: Int64?
    var unit: Unit

    init(verb: String, name: String, albums: Int?, covers: Int? = nil, done: Int64, total: Int64?, unit: Unit) {
        self.verb = verb
        self.name = TerminalText.escaped((name as NSString).lastPathComponent)
        self.albums = albums
        self.covers = covers
        self.done = done
        self.total = total.flatMap { $0 > 0 ? $0 : nil }
        self.unit = unit
    }

    /// How far along, 0 to 1, when the total is known.
    var fraction: Double? { total.map { min(max(Double(done) / Double($0), 0), 1) } }

    /// The readings worth showing after `seconds`, most important first.
    func facts(seconds: Double) -> [String] {
        var facts: [String] = []
        if let fraction { facts.append("\(Int(fraction * 100))%") }
        if let albums { facts.append("\(albums) album\(albums == 1 ? "" : "s")") }
        if let covers, covers > 0 { facts.append("\(covers) cover\(covers == 1 ? "" : "s")") }
        if let total {
            facts.append(unit == .count ? "\(done)/\(total)" : "\(unit.format(done)) of \(unit.format(total))")
        } else if done > 0 {
            facts.append(unit.format(done))
        }
        if let eta = eta(seconds: seconds) { facts.append("ETA \(eta)") }
        if seconds >= 1, done > 0 { facts.append("\(unit.format(Int64(Double(done) / seconds)))/s") }
        return facts
    }

    /// The time left, once the rate has had time to settle: `9s`, `1m05s`.
    func eta(seconds: Double) -> String? {
        guard let fraction, fraction >= 0.05, fraction < 1, seconds >= 2 else { return nil }
        let left = Int((seconds / fraction - seconds).rounded(.up))
        return left >= 60 ? String(format: "%dm%02ds", left / 60, left % 60) : "\(max(left, 1))s"
    }

    /// A plain line, for a log.
    func plain(seconds: Double) -> String {
        "\(label): \(facts(seconds: seconds).joined(separator: ", "))"
    }

    private var label: String { name.isEmpty ? verb : "\(verb) \(name)" }

    /// The line drawn in place: at most `width - 1` columns (the last column would wrap on
    /// some terminals). Readings are dropped from the least important and the name is cut
    /// before the bar narrows below ten columns; a very narrow terminal gets what fits.
    func bar(seconds: Double, width: Int) -> String {
        let room = max(width - 1, 1)
        var facts = facts(seconds: seconds)
        while true {
            let info = facts.joined(separator: ", ")
            let hasBar = fraction != nil
            let spaces = hasBar ? 2 : 1
            let labelRoom = room - DisplayWidth.of(info) - spaces - (hasBar ? 12 : 0)
            if labelRoom >= min(DisplayWidth.of(label), 12) || facts.count <= 1 {
                let shownLabel = DisplayWidth.truncated(label, to: max(labelRoom, 0))
                let barWidth = min(30, room - DisplayWidth.of(shownLabel) - DisplayWidth.of(info) - spaces - 2)
                let line = [shownLabel, hasBar ? drawBar(max(barWidth, 1)) : "", info].filter { !$0.isEmpty }.joined(separator: " ")
                return DisplayWidth.truncated(line, to: room)
            }
            facts.removeLast()
        }
    }

    private func drawBar(_ width: Int) -> String {
        let filled = Int((fraction ?? 0) * Double(width))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }
}
