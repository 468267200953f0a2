extension String {
    /// The text with its HTML character references decoded: `&amp;` → `&`, `&#39;` and
    /// `&#x27;` → `'`, and the other named ones exports use (`&lt;`, `&gt;`, `&quot;`, `&apos;`,
    /// `&nbsp;`). RateYourMusic writes its CSV export's text HTML-escaped (`Blu &amp; Oh No`).
    /// Anything else after an `&` is left as it is, as is a reference to no character.
    public func decodingHTMLCharacterReferences() -> String {
        guard contains("&") else { return self }
        var decoded = ""
        var rest = self[...]
        while let ampersand = rest.firstIndex(of: "&") {
            decoded += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            // The longest reference decoded is `&#x10FFFF;`: look no further than that.
            let window = rest[afterAmpersand...].prefix(10)
            if let semicolon = window.firstIndex(of: ";"), let scalar = Self.character(named: rest[afterAmpersand..<semicolon]) {
                decoded.unicodeScalars.append(scalar)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                decoded += "&"
                rest = rest[afterAmpersand...]
            }
        }
        return decoded + rest
    }

    /// The character a reference's name (between `&` and `;`) stands for.
    private static func character(named name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return "\u{A0}"
        default:
            guard name.first == "#" else { return nil }
            let digits = name.dropFirst()
            let value = if digits.first == "x" || digits.first == "X" { UInt32(digits.dropFirst(), radix: 16) } else { UInt32(digits, radix: 10) }
            guard let value, value != 0 else { return nil }
            return Unicode.Scalar(value)
        }
    }
}
