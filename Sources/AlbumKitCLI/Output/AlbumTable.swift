import AlbumKit

/// `list`'s table, measured a run of albums at a time as they are listed. Columns: current
/// mark, position (right-aligned), title, artist, year, genre, cover state (coloured by state);
/// fitted to a width by cutting title, artist and genre, and on a very narrow terminal
/// leaving out genre, then year. The table keeps the runs of albums, not their cells: each
/// row's cells are made when the columns are measured and again when its line is laid out,
/// which costs less than keeping seven cells an album (BENCHMARKS.md).
struct AlbumListTable {
    /// The columns, in the order of a row's cells.
    static let columns: [TextTable.Column] = [
        .init(header: ""), .init(header: "#", alignRight: true), .init(header: "TITLE", shrinks: true),
        .init(header: "ARTIST", shrinks: true), .init(header: "YEAR", dropRank: 2), .init(header: "GENRE", shrinks: true, dropRank: 1),
        .init(header: "COVER"),
    ]
    private var table = TextTable(columns: columns)
    /// The runs of albums appended, in order, and the row each starts at.
    private var runs: [[ListedAlbum]] = []
    private var starts: [Int] = []
    private var rowCount = 0

    /// Whether no album was appended.
    var isEmpty: Bool { rowCount == 0 }

    /// Appends a row for each of `listed`.
    mutating func append(_ listed: [ListedAlbum]) {
        guard !listed.isEmpty else { return }
        // Measured on every core (a large `list` has many cells, each scanned as it is made):
        // each part's widest cells, a width per column, as one row.
        table.measure(widths: Parallel.joined(listed.count) { range in
            var widest: [Int] = []
            var row: [TextTable.Cell] = []
            for index in range {
                row.removeAll(keepingCapacity: true)
                Self.cells(of: listed[index], marked: false, into: &row)
                if widest.isEmpty { widest = row.map(\.width) }
                for (column, cell) in row.enumerated() where cell.width > widest[column] { widest[column] = cell.width }
            }
            return widest
        })
        runs.append(listed)
        starts.append(rowCount)
        rowCount += listed.count
    }

    /// The cells of `row`'s line, `*` in the first when `marked`.
    private static func cells(of row: ListedAlbum, marked: Bool, into cells: inout [TextTable.Cell]) {
        cells.append(marked ? "*" : "")
        cells.append(.init(String(row.position)))
        cells.append(.init(row.album.title))
        cells.append(.init(row.album.artist))
        cells.append(.init(row.album.year))
        cells.append(.init(row.album.genre))
        cells.append(AlbumTable.coverCell(row.cover))
    }

    /// The lines, the row of `current` marked `*`, fitted to `width` when given, as
    /// ``TextTable/renderedRuns(width:colour:)`` gives them.
    mutating func render(current: AlbumID?, width: Int?, colour: Bool) -> [[UInt8]] {
        var marked = -1
        if let current {
            for (run, start) in zip(runs, starts) {
                if let index = run.firstIndex(where: { $0.album.id == current }) {
                    marked = start + index
                    break
                }
            }
        }
        if marked >= 0 { table.widen(column: 0, toHold: "*") }
        return table.renderedRuns(rows: rowCount, width: width, colour: colour) { [runs, starts, marked] row, cells in
            // The run holding `row`: the last that starts at or before it.
            var low = 0, high = starts.count
            while high - low > 1 {
                let middle = (low + high) / 2
                if starts[middle] <= row { low = middle } else { high = middle }
            }
            Self.cells(of: runs[low][row - starts[low]], marked: row == marked, into: &cells)
        }
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

    /// One album, a field a line, every field it has in the table's order, then its tracks
    /// (numbered, with their lengths).
    static func detail(_ row: AlbumJSON.Row, isCurrent: Bool) -> String {
        let album = row.album
        var lines = ["position: \(row.position)\(isCurrent ? " (current)" : "")"]
        func line(_ name: String, _ value: String) {
            let label = name + ":"
            let shown = value.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: max(10, label.count + 1)))
            lines.append(label.padding(toLength: max(10, label.count + 1), withPad: " ", startingAt: 0) + shown)
        }
        for field in AlbumField.all {
            switch field {
            case .id: line(field.name, album.id.rawValue)
            case .title: line(field.name, album.title)
            case .artist: line(field.name, album.artist)
            case .genre: line(field.name, album.genre)
            case .year: line(field.name, album.year)
            case .coverUrl:
                line("cover", "\(album.coverUrl ?? "-") (\(row.cover.rawValue))")
                if let stored = row.stored { line("stored", stored.location ?? stored.key.fileName) }
            case .tags: if !album.tags.isEmpty { line(field.name, album.tags.joined(separator: ", ")) }
            case .ids: for (name, value) in album.ids.sorted(by: { $0.key < $1.key }) { line("ids.\(name)", value) }
            case .fields: for (name, value) in album.fields.sorted(by: { $0.key < $1.key }) { line(name, value) }
            case .tracks: break
            default: if let value = album[field] { line(field.name, value) }
            }
        }
        if !album.tracks.isEmpty {
            let discs = Set(album.tracks.compactMap(\.disc)).count > 1
            lines.append("tracks:   \(album.tracks.count)")
            for (index, track) in album.tracks.enumerated() {
                let number = (discs ? "\(track.disc ?? 1)-" : "") + String(track.number ?? index + 1)
                let length = track.seconds.map { " (\(Self.length($0)))" } ?? ""
                let artist = track.artist.map { " — \($0)" } ?? ""
                lines.append("  \(number.count < 2 ? " " + number : number). \(track.title)\(artist)\(length)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `m:ss` (or `h:mm:ss`) of a length in seconds.
    static func length(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        let twoDigits = rest < 10 ? "0\(rest)" : "\(rest)"
        return hours > 0 ? "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(twoDigits)" : "\(minutes):\(twoDigits)"
    }
}
