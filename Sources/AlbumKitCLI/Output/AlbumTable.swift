import AlbumKit

/// The human forms of albums: a table for `list`, a block of fields for `show`.
enum AlbumTable {
    /// Columns: current mark, position, title, artist, year, genre, cover state; each column
    /// as wide as its widest cell, two spaces apart, the last one unpadded.
    static func render(_ rows: [AlbumJSON.Row], current: AlbumID?) -> String {
        guard !rows.isEmpty else { return "(no albums)" }
        let header = ["", "#", "TITLE", "ARTIST", "YEAR", "GENRE", "COVER"]
        let lines = [header] + rows.map { row in
            [row.album.id == current ? "*" : "", String(row.position), clip(row.album.title), clip(row.album.artist),
             row.album.year, clip(row.album.genre), row.cover.rawValue]
        }
        let lengths = lines.map { cells in cells.map(\.count) }
        let widths = header.indices.map { column in lengths.lazy.map { $0[column] }.max() ?? 0 }
        let spaces = String(repeating: " ", count: (widths.max() ?? 0) + 2)
        var text = ""
        for (number, (cells, counts)) in zip(lines, lengths).enumerated() {
            if number > 0 { text += "\n" }
            for column in cells.indices {
                text += cells[column]
                if column < cells.count - 1 { text += spaces.prefix(widths[column] - counts[column] + 2) }
            }
        }
        return text
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
        let flat = text.utf8.contains(UInt8(ascii: "\t")) ? String(text.map { $0 == "\t" ? " " : $0 }) : text
        return flat.count > 40 ? String(flat.prefix(39)) + "…" : flat
    }
}
