import AlbumKit
import Foundation
import SourceSupport

/// The `discogs` album source: a Discogs collection export (Collection › Export), one album
/// per row (SPEC 9).
public typealias DiscogsSource = CSVExportSource<DiscogsCollection>

extension DiscogsSource {
    /// The source for Discogs collection exports.
    public init() { self.init(format: DiscogsCollection()) }
}

/// How a Discogs collection export reads: `Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,…`.
public struct DiscogsCollection: CSVExportFormat {
    public init() {}

    public var name: String { "discogs" }
    public var summary: String { "Discogs collection export (CSV)" }
    public var description: String { "a Discogs collection export" }
    public var signature: [String] { ["Catalog#", "Artist", "Title", "Label", "Format", "Rating", "Released", "release_id"] }
    public var requiredColumns: [String] { ["Artist", "Title", "Released", "release_id"] }

    /// Title; artist without Discogs's ` (2)` disambiguation suffix; year from `Released`
    /// (`0` is none); id `discogs:<release_id>`.
    public func album(from row: CSVRow) throws(CSVRowProblem) -> AlbumRecord {
        let releaseID = row["release_id"].trimmingCharacters(in: .whitespaces)
        guard !releaseID.isEmpty, releaseID.allSatisfy(\.isASCIIDigit) else {
            throw CSVRowProblem("release_id '\(releaseID.prefix(40))' is not a number")
        }
        return AlbumRecord(
            id: AlbumID("discogs:\(releaseID)"), title: row["Title"], artist: Self.withoutSuffix(row["Artist"]),
            year: try Self.year(row["Released"]))
    }

    /// `Artist (2)` → `Artist`: Discogs numbers artists who share a name.
    static func withoutSuffix(_ artist: String) -> String {
        let trimmed = artist.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "("), open > trimmed.startIndex,
            trimmed[trimmed.index(before: open)] == " "
        else { return trimmed }
        let number = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        guard !number.isEmpty, number.allSatisfy(\.isASCIIDigit) else { return trimmed }
        return String(trimmed[..<trimmed.index(before: open)]).trimmingCharacters(in: .whitespaces)
    }

    /// `Released` is a year, or a date that starts with one; empty or `0` is none.
    static func year(_ released: String) throws(CSVRowProblem) -> String {
        let text = released.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text == "0" { return "" }
        let year = text.prefix { $0.isASCIIDigit }
        guard year.count == 4, text.count == 4 || text.dropFirst(4).first == "-" else {
            throw CSVRowProblem("Released '\(text.prefix(40))' is not a year")
        }
        return year == "0000" ? "" : String(year)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
