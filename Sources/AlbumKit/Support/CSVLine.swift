/// A CSV line as RFC 4180 and Python's `csv` write it: fields quoted, their quotes doubled,
/// when they hold a comma, a quote or a line break (or start or end with a space, which readers
/// may trim), and CRLF at the end. What every CSV a exporter writes goes through.
public enum CSVLine {
    /// `fields` as one line, CRLF included.
    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// `text` as one CSV field.
    public static func field(_ text: String) -> String {
        let needsQuotes = text.contains { $0 == "," || $0 == "\"" || $0.isNewline } || text.first == " " || text.last == " "
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
