import AlbumKit
import Foundation
import SourceSupport

/// The `rym` album source: a RateYourMusic collection export, one album per row (SPEC 9).
public typealias RYMSource = CSVExportSource<RYMExport>

extension RYMSource {
    /// The source for RateYourMusic exports.
    public init() { self.init(format: RYMExport()) }
}

/// How a RateYourMusic export reads:
/// `RYM Album, First Name,Last Name,First Name localized, Last Name localized,Title,Release_Date,…`.
public struct RYMExport: CSVExportFormat {
    public init() {}

    public var name: String { "rym" }
    public var summary: String { "RateYourMusic collection export (CSV)" }
    public var description: String { "a RateYourMusic export" }
    public var signature: [String] { ["RYM Album", "First Name", "Last Name"] }
    public var requiredColumns: [String] {
        ["RYM Album", "First Name", "Last Name", "First Name localized", "Last Name localized", "Title", "Release_Date"]
    }

    /// The whole album a row gives (SPEC 9): title; artist `First Name Last Name`, the
    /// localized names when those are empty; `released` from `Release_Date` (its year the year);
    /// `rating` (0–10 ÷ 2; 0 is unrated), `format` (`Media Type`), `notes` (`Review`); `ids.rym`
    /// and the id `rym:<RYM Album>`; `Ownership`, `Purchase Date` and any other column in
    /// `fields` under `rym.`. RateYourMusic writes its text HTML-escaped (`Blu &amp; Oh No`):
    /// it is decoded.
    public func album(from row: CSVRow) throws(CSVRowProblem) -> AlbumRecord {
        let albumID = row["RYM Album"].trimmingCharacters(in: .whitespaces)
        guard !albumID.isEmpty, albumID.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw CSVRowProblem("RYM Album '\(albumID.prefix(40))' is not a number")
        }
        let text = { (column: String) in Self.text(row[column]) }
        var artist = Self.name(text("First Name"), text("Last Name"))
        if artist.isEmpty { artist = Self.name(text("First Name localized"), text("Last Name localized")) }
        let date = row["Release_Date"].trimmingCharacters(in: .whitespaces)
        var record = AlbumRecord(id: AlbumID("rym:\(albumID)"), title: text("Title"), artist: artist, year: try Self.year(date))
        if date.count == 10, date.dropFirst(4).first == "-" { record[.released] = date }
        let rating = row["Rating"].trimmingCharacters(in: .whitespaces)
        if !rating.isEmpty, rating != "0" {
            guard let value = Int(rating), (1...10).contains(value) else { throw CSVRowProblem("Rating '\(rating.prefix(20))' is not 0 to 10") }
            record.rating = Double(value) / 2
        }
        record[.format] = text("Media Type")
        record[.notes] = text("Review")
        record.ids["rym"] = albumID
        for (column, value) in row.all where !Self.mapped.contains(column.trimmingCharacters(in: .whitespaces)) {
            let value = Self.text(value)
            if !value.isEmpty { record.fields["rym.\(CSVRow.fieldName(of: column))"] = value }
        }
        return record
    }

    /// The columns the named fields take.
    private static let mapped: Set<String> = [
        "RYM Album", "First Name", "Last Name", "First Name localized", "Last Name localized", "Title", "Release_Date", "Rating", "Media Type",
        "Review",
    ]

    /// A field's text: HTML character references decoded, and RYM's `  ""` (an empty quoted
    /// field after spaces, as its export writes the last column) empty.
    static func text(_ field: String) -> String {
        let trimmed = field.trimmingCharacters(in: .whitespaces)
        return trimmed == "\"\"" ? "" : field.decodingHTMLCharacterReferences()
    }

    /// RYM splits a name in two (`The` + `Beatles`); either part may be empty.
    static func name(_ first: String, _ last: String) -> String {
        [first, last].map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The year of `Release_Date`: its one run of four digits (`1997`, `1997-05-21`,
    /// `05/21/1997`); empty is none.
    static func year(_ date: String) throws(CSVRowProblem) -> String {
        let text = date.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return "" }
        let runs = text.split { !($0.isASCII && $0.isNumber) }
        guard text.allSatisfy({ ($0.isASCII && $0.isNumber) || "-/. ".contains($0) }), let year = runs.first(where: { $0.count == 4 }) else {
            throw CSVRowProblem("Release_Date '\(text.prefix(40))' has no year")
        }
        return year == "0000" ? "" : String(year)
    }
}
