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

    /// Title; artist `First Name Last Name`, the localized names when those are empty; year
    /// of `Release_Date`; id `rym:<RYM Album>`. RateYourMusic writes its text HTML-escaped
    /// (`Blu &amp; Oh No`): it is decoded.
    public func album(from row: CSVRow) throws(CSVRowProblem) -> AlbumRecord {
        let albumID = row["RYM Album"].trimmingCharacters(in: .whitespaces)
        guard !albumID.isEmpty, albumID.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw CSVRowProblem("RYM Album '\(albumID.prefix(40))' is not a number")
        }
        let text = { (column: String) in row[column].decodingHTMLCharacterReferences() }
        var artist = Self.name(text("First Name"), text("Last Name"))
        if artist.isEmpty { artist = Self.name(text("First Name localized"), text("Last Name localized")) }
        return AlbumRecord(id: AlbumID("rym:\(albumID)"), title: text("Title"), artist: artist, year: try Self.year(row["Release_Date"]))
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
