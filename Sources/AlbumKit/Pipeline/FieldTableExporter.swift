import Foundation

/// Writes every album as a row of a table — `FILE.csv` (RFC 4180, as spreadsheets and Python's
/// `csv` read it: a header row, fields quoted where they hold a comma, a quote or a line break,
/// CRLF line ends) or `FILE.jsonl` (one JSON object a line) — with the fields `export --fields`
/// names, the core fields by default (SPEC 12). A field an album does not have is empty in a
/// CSV row and `null` in a line. The albums are read a run at a time and written through a
/// buffer into a temporary file, renamed into place when complete.
public struct FieldTableExporter: Exporter {
    /// The two table layouts.
    public enum Layout: Sendable {
        /// Comma-separated values with a header row.
        case csv
        /// JSON lines: an object per album.
        case jsonLines
    }

    /// The layout this exporter writes.
    public let layout: Layout

    /// An exporter of `layout`.
    public init(layout: Layout) { self.layout = layout }

    public var name: String { layout == .csv ? "csv" : "jsonl" }
    public var summary: String { layout == .csv ? "a CSV table, a row per album (--fields)" : "JSON lines, an object per album (--fields)" }
    public var fileEndings: [String] { [layout == .csv ? ".csv" : ".jsonl"] }
    public var choosesFields: Bool { true }

    /// How many albums are read from the library at a time.
    private static let run = 2048

    public func export(_ contents: ExportContents, to destination: URL, hub: NotificationHub) async throws -> Int64 {
        let fields = try ExportedFields(contents.fields)
        let file = try TemporaryFile(beside: destination)
        var sink = BufferedSink(descriptor: file.descriptor, path: destination.path)
        var bytes: Int64 = 0
        var albums = 0
        func write(_ line: String) throws {
            var line = line
            try sink.write { buffer in line.withUTF8 { buffer.append(contentsOf: $0) } }
            bytes += Int64(line.utf8.count)
        }
        if layout == .csv { try write(CSVLine.line(fields.names)) }
        try await contents.read(inRunsOf: Self.run) { piece in
            guard case .albums(let run) = piece else { return }
            for album in run {
                let values = fields.values(of: album)
                try write(layout == .csv ? CSVLine.line(values.map { $0 ?? "" }) : try Self.jsonLine(fields.names, values))
            }
            albums += run.count
        }
        try sink.flush()
        try file.commit()
        hub.publish(.exportProgress(path: destination.path, albums: albums, totalAlbums: albums, covers: 0, bytesWritten: bytes))
        return bytes
    }

    /// One JSON object (keys in the order asked for, a missing value `null`) and a line break.
    private static func jsonLine(_ names: [String], _ values: [String?]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let members = try zip(names, values).map { name, value in
            String(decoding: try encoder.encode(name), as: UTF8.self) + ":" + String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        return "{" + members.joined(separator: ",") + "}\n"
    }
}
