import AlbumKit

/// The human forms of albums: a table for `list`, a block of fields for `show`.
enum AlbumTable {
    /// Columns: current mark, position (right-aligned), title, artist, year, genre, cover
    /// state (coloured by state); fitted to `width` by cutting title, artist and genre, and
    /// on a very narrow terminal leaving out genre, then year.
    static func render(_ rows: [AlbumJSON.Row], current: AlbumID?, width: Int?, colour: Bool) -> [String] {
        var table = TextTable(columns: [
            .init(header: ""), .init(header: "#", alignRight: true), .init(header: "TITLE", shrinks: true),
            .init(header: "ARTIST", shrinks: true), .init(header: "YEAR", dropRank: 2), .init(header: "GENRE", shrinks: true, dropRank: 1),
            .init(header: "COVER"),
        ])
        // Each cell is escaped as it is made: 700 000 of them for 100 000 albums, on every core.
        table.rows = Parallel.joined(rows.count) { range in
            rows[range].map { row in
                [
                    row.album.id == current ? "*" : "", .init(String(row.position)), .init(row.album.title), .init(row.album.artist),
                    .init(row.album.year), .init(row.album.genre), coverCell(row.cover),
                ]
            }
        }
        return table.render(width: width, colour: colour)
    }

    /// A cover state, coloured by what it asks of the reader.
    static func coverCell(_ state: CoverState) -> TextTable.Cell {
        switch state {
        case .stored: .init(state.rawValue, style: .good)
        case .missing: .init(state.rawValue, style: .attention)
        case .failed: .init(state.rawValue, style: .error)
        case .none: .init(state.rawValue, style: .faint)
        }
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
}
