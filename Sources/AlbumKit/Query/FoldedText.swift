import Foundation

/// Text as queries compare it: lower-cased and without accents (`Café` and `CAFE` both read
/// `cafe`). A query word is found in a field when the field's folded bytes hold the word's
/// folded bytes — the same test a database runs on the folded text a row store keeps of each
/// album (``Album/searchText``), so what the database finds is exactly what this finds.
package enum FoldedText {
    /// `text` folded. ASCII text is lower-cased byte by byte; other text goes through
    /// Foundation's case and diacritic folding.
    package static func fold(_ text: String) -> String {
        let bytes = text.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
        guard bytes.contains(where: isUpperASCII) else { return text }
        return String(decoding: bytes.map { isUpperASCII($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether `text`, folded, holds `folded` (a folded word), byte for byte. ASCII text is
    /// compared without building its folded copy.
    package static func holds(_ text: String, _ folded: String) -> Bool {
        let needle = folded.utf8
        guard !needle.isEmpty else { return true }
        let haystack = text.utf8
        guard haystack.allSatisfy({ $0 < 0x80 }) else { return contains(fold(text).utf8, needle) }
        return haystack.withContiguousStorageIfAvailable { hay in
            needle.withContiguousStorageIfAvailable { word in contains(hay, word, lowering: true) }
        }.flatMap { $0 } ?? contains(fold(text).utf8, needle)
    }

    /// Whether `text`, already folded, holds `folded` (a folded word), byte for byte.
    package static func holds(folded text: Substring, _ folded: String) -> Bool {
        let needle = folded.utf8
        guard !needle.isEmpty else { return true }
        return text.utf8.withContiguousStorageIfAvailable { hay in
            needle.withContiguousStorageIfAvailable { word in contains(hay, word) }
        }.flatMap { $0 } ?? contains(Array(text.utf8), Array(needle))
    }

    /// Whether `text`, ASCII bytes, folded, holds `folded` (a folded word), byte for byte.
    static func holds(ascii text: UnsafeBufferPointer<UInt8>, _ folded: String) -> Bool {
        let needle = folded.utf8
        guard !needle.isEmpty else { return true }
        return needle.withContiguousStorageIfAvailable { word in contains(text, word, lowering: true) } ?? contains(text, Array(needle), lowering: true)
    }

    private static func isUpperASCII(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }

    /// Whether `haystack` holds `needle`, `haystack`'s ASCII capitals read as small letters
    /// when `lowering`.
    private static func contains<H: Collection<UInt8>, N: Collection<UInt8>>(_ haystack: H, _ needle: N, lowering: Bool = false) -> Bool
    where H.Index == Int, N.Index == Int {
        let count = needle.count
        guard count <= haystack.count else { return false }
        let first = needle[needle.startIndex]
        var start = haystack.startIndex
        let last = haystack.endIndex - count
        while start <= last {
            let byte = haystack[start]
            if (lowering && isUpperASCII(byte) ? byte | 0x20 : byte) == first {
                var matched = true
                for offset in 1..<count {
                    let candidate = haystack[start + offset]
                    if (lowering && isUpperASCII(candidate) ? candidate | 0x20 : candidate) != needle[needle.startIndex + offset] {
                        matched = false
                        break
                    }
                }
                if matched { return true }
            }
            start += 1
        }
        return false
    }

    private static func contains(_ haystack: String.UTF8View, _ needle: String.UTF8View) -> Bool {
        contains(Array(haystack), Array(needle))
    }
}
