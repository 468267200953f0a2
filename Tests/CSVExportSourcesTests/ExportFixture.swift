import AlbumKit
import AlbumKitTesting
import Foundation

/// CSV exports as the services write them, made by Python's `csv` module: a UTF-8 byte order
/// mark, CRLF line ends, fields quoted where they hold commas, quotes or line breaks.
enum ExportFixture {
    /// The header of a Discogs collection export.
    static let discogsHeader = ["Catalog#", "Artist", "Title", "Label", "Format", "Rating", "Released", "release_id", "CollectionFolder", "Date Added", "Collection Media Condition", "Collection Sleeve Condition", "Collection Notes"]
    /// The header of a RateYourMusic export (the spaces before some names are RYM's).
    static let rymHeader = ["RYM Album", " First Name", "Last Name", "First Name localized", " Last Name localized", "Title", "Release_Date", "Rating", "Ownership", "Purchase Date", "Media Type", "Review"]

    /// Writes `rows` under `header` to `file` with Python's `csv` writer.
    static func write(header: [String], rows: [[String]], to file: URL) throws {
        let spec = file.deletingLastPathComponent().appendingPathComponent(".rows-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: spec) }
        try JSONSerialization.data(withJSONObject: [header] + rows).write(to: spec)
        let script = """
            import csv, json, sys
            rows = json.load(open(sys.argv[1]))
            with open(sys.argv[2], 'w', newline='', encoding='utf-8-sig') as out:
                csv.writer(out).writerows(rows)
            """
        let result = try runProgram("/usr/bin/env", ["python3", "-c", script, spec.path, file.path])
        guard result.status == 0 else { throw AlbumKitError(.fileSystem, "csv failed: \(result.output)") }
    }

    /// A Discogs row with these fields and the rest as Discogs fills them.
    static func discogs(artist: String, title: String, released: String, id: String) -> [String] {
        ["CAT-\(id)", artist, title, "Some Label, Ltd.", "LP, Album", "5", released, id, "Uncategorized", "2021-03-04 10:11:12", "Mint (M)", "Near Mint (NM or M-)", "bought at \"the\" fair,\nsecond line"]
    }

    /// A RYM row with these fields and the rest as RYM fills them.
    static func rym(id: String, first: String, last: String, firstLocalized: String = "", lastLocalized: String = "", title: String, date: String) -> [String] {
        [id, first, last, firstLocalized, lastLocalized, title, date, "8", "o", "", "CD", "A review, with \"quotes\"\nand two lines."]
    }
}

/// Reads every item of `source` on `file`.
func readAlbums(_ source: some AlbumSource, _ file: URL) async throws -> [AlbumRecord] {
    var albums: [AlbumRecord] = []
    for try await item in source.items(from: try SourceInput(at: file), context: SourceContext()) {
        if case .album(let record, _) = item { albums.append(record) }
    }
    return albums
}

/// The error reading `file` with `source` ends in, or "" (and an issue) when there is none.
func readFailure(_ source: some AlbumSource, _ file: URL) async throws -> String {
    do {
        _ = try await readAlbums(source, file)
    } catch let error as AlbumKitError {
        return error.description
    }
    return ""
}
