import Foundation

/// `normalize`: title, artist, genre and the other one-line text fields (label, format, …)
/// trimmed, in Unicode NFC, and every inner run of white space turned into one space — so
/// `"Hunky  Dory"` and a decomposed `"Café"` import as the same text the library already holds.
public struct NormalizeStage: ImportStage {
    public init() {}

    public var name: String { "normalize" }

    public mutating func process(_ item: ImportItem) async throws -> StageDecision {
        var item = item
        // Only a text that changes is set: a record left as it was stays checked
        // (``ImportItem/isChecked``), and the commit need not check it again. The three core
        // texts by name, not through a list of key paths made and read for every album.
        if let title = Self.changed(item.record.title) { item.record.title = title }
        if let artist = Self.changed(item.record.artist) { item.record.artist = artist }
        if let genre = Self.changed(item.record.genre) { item.record.genre = genre }
        for field in AlbumField.scalars where field.kind == .text {
            if let value = item.record[field], let normal = Self.changed(value) { item.record[field] = normal }
        }
        return .pass(item)
    }

    /// `text` normalized, when that changes it; nil when it is normal already.
    private static func changed(_ text: String) -> String? {
        let normal = normalized(text)
        return normal == text ? nil : normal
    }

    /// `text` trimmed, composed (NFC), with runs of white space made one space.
    public static func normalized(_ text: String) -> String {
        // Text that `isNormalAsItIs` passes (single spaces inside, every scalar below U+0300 or
        // a CJK ideograph) is already normal: no copy (decided on the bytes: Foundation's
        // `contains("  ")` cost more than the rest of the stage, and its NFC a third of a
        // Discogs import's mapping).
        if isNormalAsItIs(text) { return text }
        var result = ""
        var pendingSpace = false
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.unicodeScalars.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` is normal as it is, decided on its bytes: every scalar printable and below
    /// U+0300 (ASCII and the Latin letters with their accents precomposed, `Motörhead`, `Ríos`)
    /// or a CJK unified ideograph (U+4E00 to U+9FFF, `東京`), where NFC changes nothing (none of
    /// them decomposes, combines or reorders), no white space but single spaces inside (the
    /// others below U+0300 are NEL and the no-break space, C2 85 and C2 A0; no ideograph is
    /// white space). Anything else takes the long way.
    private static func isNormalAsItIs(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in
            var previous = UInt8(ascii: " ")
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    guard (0x20..<0x7F).contains(byte), byte != 0x20 || previous != 0x20 else { return false }
                } else if byte >= 0xE4 {
                    // A lead byte of U+4E00 (E4 B8 80) to U+9FFF (E9 BF BF); valid UTF-8, so its
                    // two continuation bytes follow.
                    guard byte <= 0xE9, byte != 0xE4 || bytes[index + 1] >= 0xB8 else { return false }
                    index += 2
                } else {
                    // A lead byte of U+0080 to U+02FF; valid UTF-8, so its one continuation byte follows.
                    guard (0xC2...0xCB).contains(byte), byte != 0xC2 || (bytes[index + 1] != 0x85 && bytes[index + 1] != 0xA0) else { return false }
                    index += 1
                }
                previous = byte
                index += 1
            }
            return previous != 0x20 || bytes.isEmpty
        }
    }
}

extension ImportStageFactory {
    /// `normalize`: trimmed, NFC, single inner spaces.
    public static let normalize = ImportStageFactory(
        name: "normalize", summary: "trims, composes to Unicode NFC, and makes inner runs of white space one space"
    ) { _ in NormalizeStage() }
}
