/// How many terminal columns text takes, by wcwidth's rules, written once: East Asian wide
/// and full-width characters and emoji take two columns, combining marks and other
/// zero-width characters none, everything else one. A grapheme cluster (a letter with its
/// accents, an emoji with its modifiers and joiners) takes the width of its first character,
/// or two when it asks for emoji presentation.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: some StringProtocol) -> Int {
        // Printable ASCII, the usual case, is one column a byte.
        if isPrintableASCII(text) { return text.utf8.count }
        // Latin text (below U+0300, where combining marks begin) has no emoji presentation, no
        // wide or combining characters: each scalar is a column, but for controls and the soft
        // hyphen (a format character), which take none. Anything else goes character by character.
        // So are the kana, CJK ideographs and Hangul syllables (two columns each): none is an
        // emoji or a combining mark, and a mark after one is beyond these ranges.
        var columns = 0
        for scalar in text.unicodeScalars {
            if isPlainWide(scalar.value) {
                columns += 2
                continue
            }
            guard scalar.value < 0x300 else { return text.reduce(0) { $0 + of($1) } }
            if scalar.value >= 0x20, !(0x7F...0x9F).contains(scalar.value), scalar.value != 0xAD { columns += 1 }
        }
        return columns
    }

    /// Whether `text` is printable ASCII alone: one column a byte, and nothing to escape.
    static func isPrintableASCII(_ text: some StringProtocol) -> Bool {
        func isPrintable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }
        return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPrintable) } ?? text.utf8.allSatisfy(isPrintable)
    }

    /// The columns one character (grapheme cluster) takes.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.properties.isEmojiPresentation || (first.properties.isEmoji && scalars.contains("\u{FE0F}")) { return 2 }
        return width(of: first)
    }

    private static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if scalar.value == 0x200B { return 0 }
        return isWide(scalar.value) ? 2 : 1
    }

    /// Hiragana and katakana letters, CJK ideographs, Hangul syllables: wide, and each a
    /// character of its own.
    private static func isPlainWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3: true
        default: false
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks, as wcwidth has them.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
            0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// `text` cut to at most `width` columns, ending in `…` when anything was cut.
    static func truncated(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }
}
