import AlbumKit
import Foundation
import SourceSupport

/// The columns of a Discogs collection export and how each maps to an album — the one place
/// that knows it, read by the import (``DiscogsCollection``) and written back by the export
/// (``DiscogsExporter``). A value the album's named fields would not give back exactly (an
/// artist's ` (2)`, a title's trailing space, `Released` written `0` or left empty, a date the
/// export wrote another way) is also kept as it was in `fields` under `discogs.<name>`, so that an
/// export, imported and exported again, gives every column of every row as it was.
enum DiscogsColumns {
    /// The export's header, in Discogs's order.
    static let header = table.map(\.name)

    /// The columns an album's named fields give (``derived(_:of:)``), each by what gives it;
    /// its raw value is the column's name in `fields`.
    enum Derived: String, Sendable {
        case catalogNumber, artist, title, label, format, rating, released, releaseID = "releaseId", dateAdded, notes
    }

    /// What is known of one of Discogs's own columns: its name in `fields`, and what gives it
    /// back (nil for one always kept in `fields`).
    struct Column: Sendable {
        /// Its name in `fields` (`discogs.<name>`).
        let field: String
        /// The named fields that give it; nil when it is one of `fields` itself (`discogs.folder`…).
        let derived: Derived?

        /// A column the named fields give, named in `fields` as what gives it.
        init(_ derived: Derived) {
            field = "discogs.\(derived.rawValue)"
            self.derived = derived
        }

        /// A column always kept in `fields`, under `name`.
        init(kept name: String) {
            field = "discogs.\(name)"
            derived = nil
        }
    }

    /// Each of Discogs's own columns, in the export's order, with what is known of it. The
    /// import reads a row's columns by their places here, found once a file (``place(of:)``).
    static let table: [(name: String, column: Column)] = [
        ("Catalog#", Column(.catalogNumber)), ("Artist", Column(.artist)), ("Title", Column(.title)), ("Label", Column(.label)),
        ("Format", Column(.format)), ("Rating", Column(.rating)), ("Released", Column(.released)), ("release_id", Column(.releaseID)),
        ("CollectionFolder", Column(kept: "folder")), ("Date Added", Column(.dateAdded)), ("Collection Media Condition", Column(kept: "mediaCondition")),
        ("Collection Sleeve Condition", Column(kept: "sleeveCondition")), ("Collection Notes", Column(.notes)),
    ]

    /// Each of Discogs's own columns, by its name.
    static let columns = Dictionary(uniqueKeysWithValues: table.map { ($0.name, $0.column) })

    /// The place in ``table`` (and ``header``) of the column `derived` gives.
    static func place(of derived: Derived) -> Int {
        table.firstIndex { $0.column.derived == derived }!
    }

    /// The name in `fields` of the columns a file has beyond ``header`` (a user's custom
    /// collection fields, `Purchase Price`), by their names in the file's order as a JSON array:
    /// a column's name in `fields` (`discogs.purchasePrice`) does not give its name back.
    static let customColumnsField = "discogs.customColumns"

    /// `columns` as ``customColumnsField`` keeps them.
    static func customColumnsText(_ columns: [String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: columns)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The custom columns an album's ``customColumnsField`` names; none when it has none.
    static func customColumns(of album: some AlbumDetailsCarrier) -> [String] {
        guard let text = album.fields[customColumnsField],
            let columns = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String]
        else { return [] }
        return columns
    }

    /// The name in `fields` of `column`: Discogs's own by the table, any other (a custom field
    /// of the user's) in lower camel case (`Purchase Price` → `discogs.purchasePrice`).
    static func fieldName(_ column: String) -> String {
        columns[column]?.field ?? "discogs.\(CSVRow.fieldName(of: column))"
    }

    /// The value of `column` for `album`, as the export writes it: what `fields` keeps under
    /// its name, else what its named field gives.
    static func value(_ column: String, of album: some AlbumDetailsCarrier & CoreFields) -> String {
        if let kept = album.fields[fieldName(column)] { return kept }
        return columns[column]?.derived.map { derived($0, of: album) } ?? ""
    }

    /// What `derived` gives for a column once `record` has been imported: its text trimmed and
    /// normalized as the import's stages make it; what a row must say for the column not to be
    /// kept apart in `fields`.
    static func asImported(_ column: Derived, of record: AlbumRecord) -> String {
        let value = derived(column, of: record)
        switch column {
        case .catalogNumber, .artist, .title, .label, .format: return NormalizeStage.normalized(value)
        case .notes: return value.trimmingCharacters(in: .whitespacesAndNewlines)
        case .rating, .released, .releaseID, .dateAdded: return value
        }
    }

    /// What the album's named fields give for a column (the export's own spelling).
    static func derived(_ column: Derived, of album: some AlbumDetailsCarrier & CoreFields) -> String {
        switch column {
        case .catalogNumber: album[.catalogNumber] ?? ""
        case .artist: album.artist
        case .title: album.title
        case .label: album[.label] ?? ""
        case .format: album[.format] ?? ""
        case .rating: album[.rating] ?? ""
        case .released: album[.released] ?? album.year
        case .releaseID: album.ids["discogs"] ?? ""
        case .dateAdded: album[.added].flatMap(Self.dateAdded) ?? ""
        case .notes: album[.notes] ?? ""
        }
    }

    /// `2024-01-02T03:04:05Z` as Discogs writes a date added: `2024-01-02 03:04:05`.
    static func dateAdded(_ timestamp: String) -> String? {
        guard timestamp.utf8.count == 20, timestamp.utf8.last == UInt8(ascii: "Z") else { return nil }
        // On the bytes, into the string itself, not through NSString's `replacingOccurrences`
        // (asked for every row an import reads: a tenth of the Discogs mapping's time). A stored
        // moment is ASCII.
        return String(unsafeUninitializedCapacity: 19) { text in
            for (index, byte) in timestamp.utf8.prefix(19).enumerated() { text[index] = byte == UInt8(ascii: "T") ? UInt8(ascii: " ") : byte }
            return 19
        }
    }

    /// A date added as Discogs writes it (`2020-11-18 19:17:05`), or as a spreadsheet re-saved
    /// it (`23/04/2023 04:38`), as RFC 3339 in UTC; nil for anything else.
    static func timestamp(_ text: String) -> String? {
        // Discogs's own `YYYY-MM-DD HH:MM:SS`, nearly every row, read on its bytes in place.
        if let exact = exportedTimestamp(text) { return exact }
        let parts = text.split(separator: " ")
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: parts[0].contains("/") ? "/" : "-").map(String.init)
        var time = parts[1].split(separator: ":").map(String.init)
        guard date.count == 3, (2...3).contains(time.count), (date + time).allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        if time.count == 2 { time.append("00") }
        let (year, month, day) = parts[0].contains("/") ? (date[2], date[1], date[0]) : (date[0], date[1], date[2])
        func two(_ text: String) -> String { text.count == 1 ? "0" + text : text }
        let text = "\(year)-\(two(month))-\(two(day))T\(two(time[0])):\(two(time[1])):\(two(time[2]))Z"
        return year.count == 4 ? text : nil
    }

    /// `YYYY-MM-DD HH:MM:SS` (digits where the letters are) as `YYYY-MM-DDTHH:MM:SSZ`, what
    /// ``timestamp(_:)`` makes of it; nil for any other text.
    private static func exportedTimestamp(_ text: String) -> String? {
        guard text.utf8.count == 19 else { return nil }
        for (index, byte) in text.utf8.enumerated() {
            let expected: UInt8? = switch index {
            case 4, 7: UInt8(ascii: "-")
            case 10: UInt8(ascii: " ")
            case 13, 16: UInt8(ascii: ":")
            default: nil
            }
            guard expected.map({ byte == $0 }) ?? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        }
        // Written into the string itself: an array of the bytes, then the string, was two
        // allocations a row.
        return String(unsafeUninitializedCapacity: 20) { timestamp in
            for (index, byte) in text.utf8.enumerated() { timestamp[index] = index == 10 ? UInt8(ascii: "T") : byte }
            timestamp[19] = UInt8(ascii: "Z")
            return 20
        }
    }
}

/// The core fields an album and a record both have.
protocol CoreFields {
    var title: String { get }
    var artist: String { get }
    var year: String { get }
}

extension Album: CoreFields {}
extension AlbumRecord: CoreFields {}
