import AlbumKit

/// `list`'s table, built a run of albums at a time as they are listed. Columns: current mark,
/// position (right-aligned), title, artist, year, genre, cover state (coloured by state);
/// fitted to a width by cutting title, artist and genre, and on a very narrow terminal
/// leaving out genre, then year.
struct AlbumListTable {
    private var table = TextTable(columns: [
        .init(header: ""), .init(header: "#", alignRight: true), .init(header: "TITLE", shrinks: true),
        .init(header: "ARTIST", shrinks: true), .init(header: "YEAR", dropRank: 2), .init(header: "GENRE", shrinks: true, dropRank: 1),
        .init(header: "COVER"),
    ])
    /// Each row's album, to mark the current one once the listing is whole.
    private var ids: [AlbumID] = []

    /// Whether no album was appended.
    var isEmpty: Bool { ids.isEmpty }

    /// Appends a row for each of `listed`.
    mutating func append(_ listed: [ListedAlbum]) {
        // Each cell is escaped as it is made: 700 000 of them for 100 000 albums, on every core.
        table.append(rowAfterRow: Parallel.joined(listed.count) { range in
            var cells: [TextTable.Cell] = []
            cells.reserveCapacity(range.count * 7)
            for row in listed[range] {
                cells.append("")
                cells.append(.init(String(row.position)))
                cells.append(.init(row.album.title))
                cells.append(.init(row.album.artist))
                cells.append(.init(row.album.year))
                cells.append(.init(row.album.genre))
                cells.append(AlbumTable.coverCell(row.cover))
            }
            return cells
        })
        ids += listed.map(\.album.id)
    }

    /// The lines, the row of `current` marked `*`, fitted to `width` when given, as
    /// ``TextTable/renderedRuns(width:colour:)`` gives them. The mark is put in place (a copy
    /// of the table would copy 100 000 rows for it).
    mutating func render(current: AlbumID?, width: Int?, colour: Bool) -> [[UInt8]] {
        if let current, let row = ids.firstIndex(of: current) { table.replace(row: row, column: 0, with: "*") }
        return table.renderedRuns(width: width, colour: colour)
    }
}

/// The human forms of single albums and their covers: a block of fields for `show`, a cover
/// state's cell.
enum AlbumTable {
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
