import AlbumKit
import Foundation

/// What tells one CSV export apart from another: its header and how a row becomes an album.
/// Discogs and RateYourMusic are two of these; ``CSVExportSource`` reads any of them.
public protocol CSVExportFormat: Sendable {
    /// The source's name (`discogs`), for `import --format` and `albumkit plugins`.
    var name: String { get }
    /// One line for `albumkit plugins`.
    var summary: String { get }
    /// What messages call the export ("a Discogs collection export").
    var description: String { get }
    /// Columns of the export's own, white space around them aside: a file whose header holds
    /// every one of them, in any order (a spreadsheet may have moved them), is this export.
    var signature: [String] { get }
    /// The columns ``album(from:)`` reads; a header without one is an error.
    var requiredColumns: [String] { get }
    /// The columns ``album(from:)`` reads by their place in this list (``CSVRow/subscript(place:)``):
    /// found in a file's header once for all its rows, where a name is looked up for each row.
    /// None unless a format says.
    var columnsByPlace: [String] { get }
    /// The album one data row gives; a problem is thrown as a ``CSVRowProblem``.
    func album(from row: CSVRow) throws(CSVRowProblem) -> AlbumRecord
}

extension CSVExportFormat {
    /// None: the format reads its columns by name.
    public var columnsByPlace: [String] { [] }
}

/// What is wrong with one row, in a few words ("release_id 'x' is not a number"); the source
/// adds the file, row and line.
public struct CSVRowProblem: Error, Sendable {
    /// The problem.
    public let message: String
    /// A problem saying `message`.
    public init(_ message: String) { self.message = message }
}

/// Where a file's columns are, found once from its header for all its rows.
final class CSVColumnPlaces: Sendable {
    /// Each column's index in a row, by its name (white space around it aside; the first of
    /// two columns of one name).
    let columns: [String: Int]
    /// The columns of ``columns`` in the header's order, each with its place in the format's
    /// ``CSVExportFormat/columnsByPlace`` (nil for a column not there).
    let ordered: [(column: String, index: Int, place: Int?)]
    /// The index in a row of each of the format's ``CSVExportFormat/columnsByPlace`` (nil for
    /// one the header lacks).
    let places: [Int?]
    /// The columns whose name an earlier column has, each with its index: not read, and said so.
    let repeated: [(column: String, index: Int)]

    init(header: [String], byPlace: [String]) {
        var columns: [String: Int] = [:]
        var repeated: [(column: String, index: Int)] = []
        for (index, name) in header.enumerated() {
            let name = name.trimmingCharacters(in: .whitespaces)
            if columns[name] == nil { columns[name] = index } else { repeated.append((name, index)) }
        }
        self.columns = columns
        self.repeated = repeated
        places = byPlace.map { columns[$0] }
        ordered = columns.sorted { $0.value < $1.value }.map { ($0.key, $0.value, byPlace.firstIndex(of: $0.key)) }
    }
}

/// One data row, with its fields looked up by column name or by place.
public struct CSVRow: Sendable {
    let fields: [String]
    let columns: CSVColumnPlaces

    /// The field under `column` (a required column; "" for any other the header lacks).
    public subscript(column: String) -> String {
        columns.columns[column].map { fields[$0] } ?? ""
    }

    /// The field under the column at `place` in the format's ``CSVExportFormat/columnsByPlace``
    /// ("" when the header lacks it).
    public subscript(place place: Int) -> String {
        columns.places[place].map { fields[$0] } ?? ""
    }

    /// A column's name as a name in `fields` (`Purchase Date` → `purchaseDate`): its ASCII
    /// letters and digits in lower camel case, `column…` when it would not start with a letter.
    public static func fieldName(of column: String) -> String {
        let words = column.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let camel = words.enumerated().map { index, word in
            index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst().lowercased()
        }.joined()
        return camel.first?.isLetter == true ? camel : "column\(camel)"
    }

    /// Every column of the header with this row's value, in the header's order.
    public var all: [(column: String, value: String)] {
        columns.ordered.map { ($0.column, fields[$0.index]) }
    }

    /// Every column of the header with this row's value and its place in the format's
    /// ``CSVExportFormat/columnsByPlace`` (nil for a column not there), in the header's order.
    public var placed: [(column: String, value: String, place: Int?)] {
        columns.ordered.map { ($0.column, fields[$0.index], $0.place) }
    }
}

/// An ``AlbumSource`` for the CSV export `Format` describes: recognised by its header, read
/// row by row (one record in memory), every row an album. A row with fewer fields than the
/// header is read with the missing ones empty, and one with more with the extra ones dropped
/// when they are empty (Discogs writes both); a row that still does not fit, or that its format
/// cannot read, is yielded as ``SourceItem/invalid(_:label:reason:)``, named by row and line.
public struct CSVExportSource<Format: CSVExportFormat>: AlbumSource {
    /// The export this source reads.
    public let format: Format

    /// A source for `format`.
    public init(format: Format) { self.format = format }

    public var name: String { format.name }
    public var summary: String { format.summary }
    /// Exports other services write.
    public var readsOtherToolsFiles: Bool { true }
    /// A CSV export names no cover: its albums go through the stages as they are read.
    public var carriesCovers: Bool { false }
    /// The module that declares the format (`RYMSource`), not this shared reader's.
    public var origin: AdapterOrigin { AdapterOrigin(of: format) }

    /// Specific when the first line's columns hold the format's signature, in any order.
    public func match(_ input: SourceInput) -> SourceMatch {
        guard !input.isFolder else { return .none }
        var text = input.prefix
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        let firstLine = text.prefix { $0 != 0x0A && $0 != 0x0D }
        let columns = String(decoding: firstLine, as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t\"")) }
        return Set(columns).isSuperset(of: format.signature) ? .specific : .none
    }

    public func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
        let url = input.url
        let format = format
        return pulledItems { try CSVExportReader(url, format: format) }
    }
}

/// Reads the rows of one export, with a progress item every so many rows.
private struct CSVExportReader<Format: CSVExportFormat>: SourceItemReader {
    private static var rowsPerProgress: Int { 2000 }

    let format: Format
    var csv: CSVReader
    let columns: CSVColumnPlaces
    let width: Int
    /// What the header makes the reader leave out, said before the first row.
    var warnings: [String]
    var rowsSinceProgress = 0
    var finished = false

    init(_ url: URL, format: Format) throws(AlbumKitError) {
        self.format = format
        csv = try CSVReader(url)
        guard let header = try csv.next() else {
            throw AlbumKitError(.unreadableInput, "\(url.path): empty; \(format.description) starts with a header line")
        }
        let columns = CSVColumnPlaces(header: header.fields, byPlace: format.columnsByPlace)
        let missing = format.requiredColumns.filter { columns.columns[$0] == nil }
        guard missing.isEmpty else {
            throw AlbumKitError(.unreadableInput, "\(url.path) line \(header.line): the header lacks the column\(missing.count == 1 ? "" : "s") \(missing.map { "'\($0)'" }.joined(separator: ", ")) of \(format.description)")
        }
        self.columns = columns
        width = header.fields.count
        warnings = columns.repeated.map { column, index in
            "\(url.path) line \(header.line): column \(index + 1) is a second '\(column)'; only the first is read, so its values are not imported"
        }
    }

    mutating func next() throws -> SourceItem? {
        guard !finished else { return nil }
        if !warnings.isEmpty { return .warning(warnings.removeFirst()) }
        if rowsSinceProgress == Self.rowsPerProgress {
            rowsSinceProgress = 0
            return .progress(bytesRead: csv.bytesRead, totalBytes: csv.totalBytes)
        }
        guard let record = try csv.next() else {
            finished = true
            return .progress(bytesRead: csv.bytesRead, totalBytes: csv.totalBytes)
        }
        rowsSinceProgress += 1
        let place = "\(csv.path) row \(record.number - 1) (line \(record.line))"
        var fields = record.fields
        if fields.count < width {
            fields += Array(repeating: "", count: width - fields.count)
        } else if fields.count > width {
            guard fields[width...].allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
                let reason = "\(fields.count) fields where the header has \(width), the extra ones not empty"
                return .invalid(AlbumRecord(title: "", artist: ""), label: AlbumLabel(place), reason: reason)
            }
            fields.removeLast(fields.count - width)
        }
        do {
            let album = try format.album(from: CSVRow(fields: fields, columns: columns))
            return .album(album, label: "\(place) '\(album.title.prefix(80))'")
        } catch {
            return .invalid(AlbumRecord(title: "", artist: ""), label: AlbumLabel(place), reason: error.message)
        }
    }
}
