/// A table of text for a terminal: columns aligned by display width (``DisplayWidth``), two
/// spaces apart, no trailing spaces. Given a width, the widest shrinkable columns give up
/// columns one at a time until the table fits, and cells cut short end in `…`; without
/// one (output piped), nothing is cut. Cells are escaped (``TerminalText``), tabs shown as
/// spaces, so that every line is plain and tab-free.
struct TextTable {
    /// One column: its header, how it aligns, whether it may be cut to fit.
    struct Column {
        var header: String
        var alignRight = false
        var shrinks = false
    }

    /// One cell: its text and, on a terminal with colour, its style.
    struct Cell: ExpressibleByStringLiteral {
        var text: String
        var style: TerminalStyle?

        init(_ text: String, style: TerminalStyle? = nil) {
            self.text = TerminalText.escaped(text.contains("\t") ? text.replacingOccurrences(of: "\t", with: " ") : text)
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
        var widths = columns.indices.map { column in lines.map { DisplayWidth.of($0[column].text) }.max() ?? 0 }
        if let width { shrink(&widths, toFit: width) }
        return lines.map { cells in
            var plain = ""
            var shown = ""
            for (column, cell) in cells.enumerated() {
                let isLast = column == cells.count - 1
                let text = DisplayWidth.truncated(cell.text, to: widths[column])
                let styled = colour ? cell.style.map { $0.apply(to: text) } ?? text : text
                let padding = String(repeating: " ", count: max(0, widths[column] - DisplayWidth.of(text)))
                let (before, after) = columns[column].alignRight ? (padding, "") : ("", isLast ? "" : padding)
                let gap = isLast ? "" : "  "
                plain += before + text + after + gap
                shown += before + styled + after + gap
            }
            // An empty last cell leaves the gap before it: no trailing spaces.
            while plain.hasSuffix(" ") { plain.removeLast() }
            while shown.hasSuffix(" ") { shown.removeLast() }
            // A terminal narrower than the columns that never shrink: cut the line itself.
            if let width, DisplayWidth.of(plain) > width { return DisplayWidth.truncated(plain, to: width) }
            return shown
        }
    }

    /// Takes columns from the widest shrinking column, one at a time, until the table fits.
    private func shrink(_ widths: inout [Int], toFit width: Int) {
        var excess = widths.reduce(0, +) + 2 * (widths.count - 1) - width
        while excess > 0 {
            let candidates = columns.indices.filter { columns[$0].shrinks && widths[$0] > Self.minimumWidth }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { return }
            widths[widest] -= 1
            excess -= 1
        }
    }
}
