/// Text that came from an input, made safe to show: control characters (C0, DEL, C1) and
/// the bidirectional overrides that reorder a line are written as escapes (`\e`, `\n`,
/// `\u{9B}`), so a name holding ESC or BEL cannot clear the screen or retitle the window.
/// Every human-readable line the command prints passes through here (``Console``); the
/// `--events` log and `--json` output escape the same characters as JSON does.
enum TerminalText {
    /// `text` with every unsafe character escaped; tabs too unless `keepingTabs`.
    static func escaped(_ text: String, keepingTabs: Bool = false) -> String {
        guard !isPlain(text), text.unicodeScalars.contains(where: { isUnsafe($0, keepingTabs: keepingTabs) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard isUnsafe(scalar, keepingTabs: keepingTabs) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{1B}": result += "\\e"
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result
    }

    /// Whether `text` holds no byte that can begin an unsafe scalar: no control byte, and no
    /// lead byte of U+0080–U+009F (`C2`) or of the bidirectional controls (`E2`). A byte scan
    /// that settles most text without decoding it (a `list` escapes every cell it prints).
    private static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F && $0 != 0xC2 && $0 != 0xE2 }
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar, keepingTabs: Bool) -> Bool {
        switch scalar.value {
        case 0x09: !keepingTabs
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
