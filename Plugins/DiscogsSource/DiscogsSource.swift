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
    /// Discogs's own columns, read by place.
    public var columnsByPlace: [String] { DiscogsColumns.header }

    /// The places in ``columnsByPlace`` of the columns ``album(from:)`` reads, by what each gives.
    private enum Place {
        static let catalogNumber = DiscogsColumns.place(of: .catalogNumber)
        static let artist = DiscogsColumns.place(of: .artist)
        static let title = DiscogsColumns.place(of: .title)
        static let label = DiscogsColumns.place(of: .label)
        static let format = DiscogsColumns.place(of: .format)
        static let rating = DiscogsColumns.place(of: .rating)
        static let released = DiscogsColumns.place(of: .released)
        static let releaseID = DiscogsColumns.place(of: .releaseID)
        static let dateAdded = DiscogsColumns.place(of: .dateAdded)
        static let notes = DiscogsColumns.place(of: .notes)
    }

    /// The whole album a row gives (SPEC 9): title; artist without Discogs's ` (2)`
    /// disambiguation suffix; year and `released` from `Released` (`0` is none); `label`,
    /// `catalogNumber` (`Catalog#`), `format`, `rating` (1–5 as is), `added` (`Date Added`),
    /// `notes` (`Collection Notes`); `ids.discogs` and the id `discogs:<release_id>`; the folder,
    /// the two condition columns and every other column in `fields` under `discogs.` (and a
    /// value the named fields would not give back exactly, as ``DiscogsColumns`` says); the
    /// names of the columns beyond Discogs's own in `discogs.customColumns`.
    public func album(from row: CSVRow) throws(CSVRowProblem) -> AlbumRecord {
        let releaseID = row[place: Place.releaseID].trimmed
        guard !releaseID.isEmpty, releaseID.allSatisfy(\.isASCIIDigit) else {
            throw CSVRowProblem("release_id '\(releaseID.prefix(40))' is not a number")
        }
        let released = row[place: Place.released].trimmed
        var record = AlbumRecord(
            id: AlbumID("discogs:\(releaseID)"), title: row[place: Place.title], artist: Self.withoutSuffix(row[place: Place.artist]), year: try Self.year(released))
        record[.released] = Self.releaseDate(released)
        record[.label] = row[place: Place.label]
        record[.catalogNumber] = row[place: Place.catalogNumber]
        record[.format] = row[place: Place.format]
        let rating = row[place: Place.rating].trimmed
        if !rating.isEmpty, rating != "0" {
            guard let value = Int(rating), (1...5).contains(value) else { throw CSVRowProblem("Rating '\(rating.prefix(20))' is not 1 to 5") }
            record.rating = Double(value)
        }
        let added = row[place: Place.dateAdded].trimmed
        if !added.isEmpty {
            guard let timestamp = DiscogsColumns.timestamp(added) else { throw CSVRowProblem("Date Added '\(added.prefix(40))' is not a date and time") }
            record[.added] = timestamp
        }
        record[.notes] = row[place: Place.notes]
        record.ids["discogs"] = releaseID
        var custom: [String] = []
        for (column, value, place) in row.placed {
            let known = place.map { DiscogsColumns.table[$0].column }
            if known == nil { custom.append(column) }
            guard !value.isEmpty else { continue }
            if let derived = known?.derived, DiscogsColumns.asImported(derived, of: record) == value { continue }
            record.fields[known?.field ?? DiscogsColumns.fieldName(column)] = value
        }
        if !custom.isEmpty { record.fields[DiscogsColumns.customColumnsField] = DiscogsColumns.customColumnsText(custom) }
        return record
    }

    /// `Released` as a release date: `YYYY-MM-DD`, with Discogs's `00` for an unknown day or
    /// month left off (`1979-06-00` → `1979-06`); nil for a bare year, `0` or anything else.
    static func releaseDate(_ released: String) -> String? {
        // Most rows give a bare year: no `-`, no date, and no parts made to find it out.
        guard released.utf8.contains(UInt8(ascii: "-")) else { return nil }
        var parts = released.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        while parts.count > 1, parts.last == "00" { parts.removeLast() }
        guard parts.count > 1 else { return nil }
        let date = parts.joined(separator: "-")
        return date.count == 7 || date.count == 10 ? date : nil
    }

    /// `Artist (2)` → `Artist`: Discogs numbers artists who share a name.
    static func withoutSuffix(_ artist: String) -> String {
        let trimmed = artist.trimmed
        guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "("), open > trimmed.startIndex,
            trimmed[trimmed.index(before: open)] == " "
        else { return trimmed }
        let number = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        guard !number.isEmpty, number.allSatisfy(\.isASCIIDigit) else { return trimmed }
        return String(trimmed[..<trimmed.index(before: open)]).trimmed
    }

    /// `Released` is a year, or a date that starts with one; empty or `0` is none.
    static func year(_ released: String) throws(CSVRowProblem) -> String {
        let text = released.trimmed
        if text.isEmpty || text == "0" { return "" }
        // Most rows give four digits: the year itself, read on the bytes.
        if text.utf8.count == 4, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return text == "0000" ? "" : text
        }
        let year = text.prefix { $0.isASCIIDigit }
        guard year.count == 4, text.count == 4 || text.dropFirst(4).first == "-" else {
            throw CSVRowProblem("Released '\(text.prefix(40))' is not a year")
        }
        return year == "0000" ? "" : String(year)
    }
}

extension Character {
    /// `0` to `9`. By its ASCII value: asked of every character of a row's numbers, where
    /// `isNumber` looked up each one's Unicode properties.
    var isASCIIDigit: Bool { asciiValue.map { (0x30...0x39).contains($0) } ?? false }
}
