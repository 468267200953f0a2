import AlbumKit

/// The human forms of albums: a table for `list`, a block of fields for `show`.
enum AlbumTable {
    /// Columns: current mark, position, title, artist, year, genre, cover state.
    static func render(_ rows: [AlbumJSON.Row], current: AlbumID?) -> String {
        guard !rows.isEmpty else { return "(no albums)" }
        let header = ["", "#", "TITLE", "ARTIST", "YEAR", "GENRE", "COVER"]
        let lines = rows.map { row in
            [row.album.id == current ? "*" : "", String(row.position), clip(row.album.title), clip(row.album.artist),
             row.album.year, clip(row.album.genre), row.cover.rawValue]
        }
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
        return ([header] + lines).map { cells in
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }

    /// One album, a field a line.
    static func detail(_ row: AlbumJSON.Row, isCurrent: Bool) -> String {
        ([
            "position: \(row.position)\(isCurrent ? " (current)" : "")",
            "id:       \(row.album.id)",
            "title:    \(row.album.title)",
            "artist:   \(row.album.artist)",
            "year:     \(row.album.year)",
            "genre:    \(row.album.genre)",
            "cover:    \(row.album.coverUrl ?? "-") (\(row.cover.rawValue))",
        ] + (row.stored.map { ["stored:   \($0.location ?? $0.key.fileName)"] } ?? [])).joined(separator: "\n")
    }

    private static func clip(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\t", with: " ")
        return flat.count > 40 ? String(flat.prefix(39)) + "…" : flat
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}

import Foundation
