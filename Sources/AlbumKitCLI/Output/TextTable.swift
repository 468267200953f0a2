import AlbumKit

/// A table of text for a terminal: columns aligned by display width (``DisplayWidth``), two
/// spaces apart, no trailing spaces. Given a width, the widest shrinkable columns give up
/// columns one at a time until the table fits (cells cut short end in `…`); when even
/// their narrowest is too wide, the columns that may go are left out, least useful first.
/// Without a width (output piped), nothing is cut. Cells are escaped (``TerminalText``), tabs shown as
/// spaces, so that every line is plain and tab-free.
struct TextTable: Sendable {
    /// One column: its header, how it aligns, whether it may be cut to fit.
    struct Column: Sendable {
        var header: String
        var alignRight = false
        var shrinks = false
        /// When the table cannot fit otherwise, columns with a rank are left out, lowest first.
        var dropRank: Int?
    }

    /// One cell: its text, the columns it takes and, on a terminal with colour, its style.
    struct Cell: ExpressibleByStringLiteral, Sendable {
        let text: String
        /// The columns `text` takes (``DisplayWidth``), measured once, as the cell is made.
        let width: Int
        var style: TerminalStyle?

        init(_ text: String, style: TerminalStyle? = nil) {
            // Printable ASCII, the usual cell, is safe as it is and a column a byte: one scan.
            if DisplayWidth.isPrintableASCII(text) {
                (self.text, width) = (text, text.utf8.count)
            } else {
                // A byte search: Foundation's `contains(_:)` on a String goes through NSString, a
                // bridge per cell.
                let tab = UInt8(ascii: "\t")
                self.text = TerminalText.escaped(text.utf8.contains(tab) ? String(decoding: text.utf8.map { $0 == tab ? UInt8(ascii: " ") : $0 }, as: UTF8.self) : text)
                width = DisplayWidth.of(self.text)
            }
            self.style = style
        }

        init(stringLiteral value: String) { self.init(value) }
    }

    /// The narrowest a shrinking column becomes before the next one gives way.
    static let minimumWidth = 6

    var columns: [Column]
    /// The cells appended, row after row, a cell per column: one array, a row laid out from a
    /// slice of it. (`list` keeps none here: ``AlbumListTable`` makes each row's cells as its
    /// line is laid out.)
    private var cells: [Cell] = []
    /// Each column's widest cell so far, the header aside.
    private var widest: [Int]

    /// A table with these columns and no rows yet.
    init(columns: [Column]) {
        self.columns = columns
        widest = Array(repeating: 0, count: columns.count)
    }

    /// How many rows were appended.
    var rowCount: Int { cells.count / columns.count }

    /// Appends `newRows` (a cell per column each).
    mutating func append(_ newRows: [[Cell]]) {
        precondition(newRows.allSatisfy { $0.count == columns.count }, "a cell per column in every row")
        measure(widths: newRows.lazy.joined().map(\.width))
        cells += newRows.joined()
    }

    /// Widens the columns to hold cells of `widths` (a width per column each, row after row),
    /// without keeping the cells: for rows ``renderedRuns(rows:width:colour:cells:)`` makes.
    mutating func measure(widths: some Sequence<Int>) {
        var column = 0
        for width in widths {
            if width > widest[column] { widest[column] = width }
            column = column + 1 == columns.count ? 0 : column + 1
        }
    }

    /// Widens `column` to hold `cell`.
    mutating func widen(column: Int, toHold cell: Cell) {
        widest[column] = max(widest[column], cell.width)
    }

    /// The lines of the table, fitted to `width` columns when given; coloured when `colour`.
    func render(width: Int?, colour: Bool) -> [String] {
        renderedRuns(width: width, colour: colour).flatMap { run in
            run.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The lines ``render(width:colour:)`` gives, as UTF-8, each ending in a newline, in runs of
    /// lines laid out side by side: a `list` of 100 000 albums is printed from them without a
    /// string for each line.
    func renderedRuns(width: Int?, colour: Bool) -> [[UInt8]] {
        renderedRuns(rows: rowCount, width: width, colour: colour) { [cells, columns] row, into in
            into.append(contentsOf: cells[(row * columns.count)..<((row + 1) * columns.count)])
        }
    }

    /// ``renderedRuns(width:colour:)`` for `rows` rows the table does not keep, each made when
    /// its line is laid out: `cells` appends row `row`'s (a cell per column, the columns
    /// measured for them with ``measure(widths:)``) to `into`. A long listing is laid out from
    /// its albums, not from a copy of every cell (BENCHMARKS.md).
    func renderedRuns(rows: Int, width: Int?, colour: Bool, cells: @escaping @Sendable (_ row: Int, _ into: inout [Cell]) -> Void) -> [[UInt8]] {
        let header = columns.map { Cell($0.header) }
        let measured = zip(header, widest).map { max($0.width, $1) }
        var shown = Array(columns.indices)
        var widths = shown.map { measured[$0] }
        if let width {
            shrink(&widths, shown, toFit: width)
            while total(widths) > width, let drop = shown.filter({ columns[$0].dropRank != nil }).min(by: { columns[$0].dropRank! < columns[$1].dropRank! }) {
                shown.removeAll { $0 == drop }
                widths = shown.map { measured[$0] }
                shrink(&widths, shown, toFit: width)
            }
        }
        // Each run of lines has a writer of its own (they reuse their bytes).
        let (shownColumns, shownWidths) = (shown, widths)
        @Sendable func writer() -> LineWriter { LineWriter(columns: columns, shown: shownColumns, widths: shownWidths, width: width, colour: colour) }
        var headerLine: [UInt8] = []
        var first = writer()
        first.write(header[...], to: &headerLine)
        return [headerLine] + Parallel.joined(rows) { range in
            var writer = writer()
            var run: [UInt8] = []
            var row: [Cell] = []
            row.reserveCapacity(columns.count)
            for index in range {
                row.removeAll(keepingCapacity: true)
                cells(index, &row)
                writer.write(row[...], to: &run)
            }
            return [run]
        }
    }

    private func total(_ widths: [Int]) -> Int { widths.reduce(0, +) + 2 * max(widths.count - 1, 0) }

    /// Lays out lines of the table once its columns are settled, in bytes reused from line to
    /// line, not a `String` grown by an append for every cell and gap.
    private struct LineWriter {
        let columns: [Column]
        let shown: [Int]
        let widths: [Int]
        let width: Int?
        let colour: Bool
        /// The line as printed, and (coloured and fitted) its text without styles, to measure.
        private var styled: [UInt8] = []
        private var plain: [UInt8] = []

        init(columns: [Column], shown: [Int], widths: [Int], width: Int?, colour: Bool) {
            (self.columns, self.shown, self.widths, self.width, self.colour) = (columns, shown, widths, width, colour)
        }

        /// Appends one line and its newline to `output`: the `shown` cells padded to `widths`,
        /// without trailing spaces; cut to `width` when the columns that never shrink are wider still.
        mutating func write(_ cells: ArraySlice<Cell>, to output: inout [UInt8]) {
            defer { output.append(UInt8(ascii: "\n")) }
            let measuresPlain = colour && width != nil
            styled.removeAll(keepingCapacity: true)
            plain.removeAll(keepingCapacity: true)
            for (index, column) in shown.enumerated() {
                let cell = cells[cells.startIndex + column]
                let size = cell.width
                let isLast = index == shown.count - 1
                let fits = size <= widths[index]
                let text = fits ? cell.text : DisplayWidth.truncated(cell.text, to: widths[index])
                let padding = max(0, widths[index] - (fits ? size : DisplayWidth.of(text)))
                let (before, after) = columns[column].alignRight ? (padding, 0) : (0, isLast ? 0 : padding)
                let gap = isLast ? 0 : 2
                Self.append(text: colour ? cell.style.map { $0.apply(to: text) } ?? text : text, before: before, after: after + gap, to: &styled)
                if measuresPlain { Self.append(text: text, before: before, after: after + gap, to: &plain) }
            }
            // An empty last cell leaves the gap before it: no trailing spaces. A space is one
            // byte and one scalar, so a character it ends (after a prepended mark) keeps the rest.
            Self.trimSpaces(&styled)
            guard let width else { return output.append(contentsOf: styled) }
            if measuresPlain { Self.trimSpaces(&plain) }
            let plainLine = String(decoding: measuresPlain ? plain : styled, as: UTF8.self)
            // A terminal narrower than the columns that never shrink: cut the line itself.
            if DisplayWidth.of(plainLine) > width {
                output.append(contentsOf: DisplayWidth.truncated(plainLine, to: width).utf8)
            } else {
                output.append(contentsOf: styled)
            }
        }

        private static func append(text: String, before: Int, after: Int, to bytes: inout [UInt8]) {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: before))
            bytes.append(contentsOf: text.utf8)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: after))
        }

        private static func trimSpaces(_ bytes: inout [UInt8]) {
            while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        }
    }

    /// Takes columns from the widest shrinking column, one at a time, until the table fits.
    private func shrink(_ widths: inout [Int], _ shown: [Int], toFit width: Int) {
        var excess = total(widths) - width
        while excess > 0 {
            let candidates = widths.indices.filter { columns[shown[$0]].shrinks && widths[$0] > Self.minimumWidth }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { return }
            widths[widest] -= 1
            excess -= 1
        }
    }
}
