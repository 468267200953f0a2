import Foundation

/// The fields an event carries in its JSON line, in a fixed order.
public enum EventValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case number(Double)
    case null
    case strings([String])
}

extension LibraryEvent {
    /// The payload fields of this event, for `--events` lines and other serialisers.
    public var payload: KeyValuePairs<String, EventValue> {
        switch self {
        case .albumAdded(let album, let position), .albumRemoved(let album, let position):
            ["id": .string(album.id.rawValue), "title": .string(album.title), "position": .int(Int64(position))]
        case .albumUpdated(_, let after):
            ["id": .string(after.id.rawValue), "title": .string(after.title)]
        case .albumMoved(let id, let from, let to):
            ["id": .string(id.rawValue), "from": .int(Int64(from)), "to": .int(Int64(to))]
        case .saved(let location, let count):
            ["location": .string(location), "albums": .int(Int64(count))]
        case .stateRestored(let current, let undo, let redo):
            ["current": current.map { .string($0.rawValue) } ?? .null, "undo": .int(Int64(undo)), "redo": .int(Int64(redo))]
        case .importStarted(let inputs):
            ["inputs": .strings(inputs)]
        case .importProgress(let input, let albums, let read, let total), .restoreProgress(let input, let albums, let read, let total):
            ["input": .string(input), "albums": .int(Int64(albums)), "bytesRead": .int(read), "totalBytes": total.map { .int($0) } ?? .null]
        case .albumImported(let album, let outcome):
            ["id": .string(album.id.rawValue), "title": .string(album.title), "outcome": .string(outcome.rawValue)]
        case .importFinished(let summary):
            [
                "added": .int(Int64(summary.added)), "skipped": .int(Int64(summary.skipped)),
                "replaced": .int(Int64(summary.replaced)), "kept": .int(Int64(summary.kept)),
                "dropped": .int(Int64(summary.dropped)), "invalid": .int(Int64(summary.invalid)),
                "coversStored": .int(Int64(summary.coversStored)), "dryRun": .bool(summary.dryRun),
            ]
        case .exportStarted(let path, let albums):
            ["path": .string(path), "albums": .int(Int64(albums))]
        case .exportProgress(let path, let albums, let total, let covers, let bytes):
            [
                "path": .string(path), "albums": .int(Int64(albums)), "totalAlbums": .int(Int64(total)), "covers": .int(Int64(covers)),
                "bytesWritten": .int(bytes),
            ]
        case .exportFinished(let path, let albums, let bytes):
            ["path": .string(path), "albums": .int(Int64(albums)), "bytesWritten": .int(bytes)]
        case .coverRequested(let id, let reference):
            ["id": .string(id.rawValue), "reference": .string(reference)]
        case .coverFetched(let id, let reference, let key, let bytes):
            ["id": .string(id.rawValue), "reference": .string(reference), "cover": .string(key.fileName), "bytes": .int(Int64(bytes))]
        case .coverCached(let id, let reference, let key):
            ["id": .string(id.rawValue), "reference": .string(reference), "cover": .string(key.fileName)]
        case .coverFailed(let id, let reference, let reason):
            ["id": .string(id.rawValue), "reference": .string(reference), "reason": .string(reason)]
        case .storageSwitched(let from, let to):
            ["from": .string(from), "to": .string(to)]
        case .changedElsewhere(let location, let count):
            ["location": .string(location), "albums": .int(Int64(count))]
        case .stageFinished(let report):
            [
                "stage": .string(report.stage), "in": .int(Int64(report.received)), "out": .int(Int64(report.passed)),
                "dropped": .int(Int64(report.dropped)), "failed": .int(Int64(report.failed)), "seconds": .number(report.seconds),
            ]
        case .restoreStarted(let input):
            ["input": .string(input)]
        case .restoreFinished(let input, let albums, let backup):
            ["input": .string(input), "albums": .int(Int64(albums)), "backup": backup.map { .string($0) } ?? .null]
        case .restoreFailed(let input, let reason), .importFailed(let input, let reason):
            ["input": .string(input), "reason": .string(reason)]
        case .migrateStarted(let from, let to, let albums):
            ["from": .string(from), "to": .string(to), "albums": .int(Int64(albums))]
        case .migrateProgress(let to, let copied, let total, let bytes):
            ["to": .string(to), "coversCopied": .int(Int64(copied)), "totalCovers": .int(Int64(total)), "bytesCopied": .int(bytes)]
        case .migrateFinished(let from, let to, let albums, let covers):
            ["from": .string(from), "to": .string(to), "albums": .int(Int64(albums)), "covers": .int(Int64(covers))]
        case .migrateFailed(let from, let to, let reason):
            ["from": .string(from), "to": .string(to), "reason": .string(reason)]
        case .pluginFailed(let plugin, let reason):
            ["plugin": .string(plugin), "reason": .string(reason)]
        case .enrichStarted(let albums):
            ["albums": .int(Int64(albums))]
        case .albumEnriched(let id, let fields):
            ["album": .string(id.rawValue), "fields": .strings(fields)]
        case .enrichFinished(let albums, let enriched):
            ["albums": .int(Int64(albums)), "enriched": .int(Int64(enriched))]
        }
    }

    /// The event as one JSON line: `{"event":NAME,"time":RFC3339,…payload}`.
    public func jsonLine(at time: Date) -> String {
        var line = "{\"event\":\(Self.quoted(name)),\"time\":\(Self.quoted(time.formatted(.iso8601)))"
        for (key, value) in payload {
            line += ",\(Self.quoted(key)):\(Self.json(value))"
        }
        return line + "}"
    }

    private static func json(_ value: EventValue) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .int(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .number(let value): value.isFinite ? String(format: "%.6f", value) : "null"
        case .null: "null"
        case .strings(let list): "[" + list.map(quoted).joined(separator: ",") + "]"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
