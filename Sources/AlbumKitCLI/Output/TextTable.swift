/// A table of text for a terminal: columns aligned by display width (``DisplayWidth``), two
/// spaces apart, no trailing spaces. Given a width, the widest shrinkable columns give up
/// columns one at a time until the table fits (cells cut short end in `…`); when even
/// their narrowest is too wide, the columns that may go are left out, least useful first.
/// Without a width (output piped), nothing is cut. Cells are escaped (``TerminalText``), tabs shown as
/// spaces, so that every line is plain and tab-free.
struct TextTable {
    /// One column: its header, how it aligns, whether it may be cut to fit.
    struct Column {
        var header: String
        var alignRight = false
        var shrinks = false
        /// When the table cannot fit otherwise, columns with a rank are left out, lowest first.
        var dropRank: Int?
    }

    /// One cell: its text and, on a terminal with colour, its style.
    struct Cell: ExpressibleByStringLiteral {
        var text: String
        var style: TerminalStyle?

        init(_ text: String, style: TerminalStyle? = nil) {
            // A byte search: Foundation's `contains(_:)` on a String goes through NSString (a quarter of `list`).
            let tab = UInt8(ascii: "\t")
            self.text = TerminalText.escaped(text.utf8.contains(tab) ? String(decoding: text.utf8.map { $0 == tab ? UInt8(ascii: " ") : $0 }, as: UTF8.self) : text)
            self.style = style
        }

        init(stringLiteral value: String) { self.init(value) }
    }

    /// The narrowest a shrinking column becomes before the next one gives way.
    static let minimumWidth = 6

    var columns: [Column]
    var rows: [[Cell]] = []

    /// The lines of the table, fitted to `width` columns when given; coloured when `colour`.
    func render(width: Int?, colour: Bool) -> [String] {
        let lines = [columns.map { Cell($0.header) }] + rows
        // Each cell is measured once (a `list` of 100 000 albums measures 700 000 cells).
        let measured = lines.map { $0.map { DisplayWidth.of($0.text) } }
        var shown = Array(columns.indices)
        var widths = natural(shown, measured)
        if let width {
            shrink(&widths, shown, toFit: width)
            while total(widths) > width, let drop = shown.filter({ columns[$0].dropRank != nil }).min(by: { columns[$0].dropRank! < columns[$1].dropRank! }) {
                shown.removeAll { $0 == drop }
                widths = natural(shown, measured)
                shrink(&widths, shown, toFit: width)
            }
        }
        return lines.indices.map { line(lines[$0], measured: measured[$0], shown: shown, widths: widths, width: width, colour: colour) }
    }

    private func natural(_ shown: [Int], _ measured: [[Int]]) -> [Int] {
        shown.map { column in measured.lazy.map { $0[column] }.max() ?? 0 }
    }

    private func total(_ widths: [Int]) -> Int { widths.reduce(0, +) + 2 * max(widths.count - 1, 0) }

    /// One line: the `shown` cells padded to `widths`. Its plain text is built apart only when
    /// it is coloured and must be measured against `width`.
    private func line(_ cells: [Cell], measured: [Int], shown: [Int], widths: [Int], width: Int?, colour: Bool) -> String {
        let measuresPlain = colour && width != nil
        var plain = ""
        var styled = ""
        // Room for the whole line at once (it is appended to cell by cell).
        styled.reserveCapacity(widths.reduce(2 * widths.count, +) + cells.reduce(0) { $0 + $1.text.utf8.count })
        for (index, column) in shown.enumerated() {
            let cell = cells[column]
            let isLast = index == shown.count - 1
            let fits = measured[column] <= widths[index]
            let text = fits ? cell.text : DisplayWidth.truncated(cell.text, to: widths[index])
            let padding = max(0, widths[index] - (fits ? measured[column] : DisplayWidth.of(text)))
            let (before, after) = columns[column].alignRight ? (padding, 0) : (0, isLast ? 0 : padding)
            let gap = isLast ? 0 : 2
            Self.appendSpaces(before, to: &styled)
            styled += colour ? cell.style.map { $0.apply(to: text) } ?? text : text
            Self.appendSpaces(after + gap, to: &styled)
            if measuresPlain {
                Self.appendSpaces(before, to: &plain)
                plain += text
                Self.appendSpaces(after + gap, to: &plain)
            }
        }
        // An empty last cell leaves the gap before it: no trailing spaces.
        // By scalar: a space can end a character (after a prepended mark), which must stay.
        while styled.utf8.last == UInt8(ascii: " ") { styled.unicodeScalars.removeLast() }
        guard let width else { return styled }
        if measuresPlain {
            while plain.utf8.last == UInt8(ascii: " ") { plain.unicodeScalars.removeLast() }
        } else {
            plain = styled
        }
        // A terminal narrower than the columns that never shrink: cut the line itself.
        if DisplayWidth.of(plain) > width { return DisplayWidth.truncated(plain, to: width) }
        return styled
    }

    private static func appendSpaces(_ count: Int, to text: inout String) {
        for _ in 0..<count { text.append(" ") }
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
