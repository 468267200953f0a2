import Foundation

/// `normalize`: title, artist, genre and the other one-line text fields (label, format, …)
/// trimmed, in Unicode NFC, and every inner run of white space turned into one space — so
/// `"Hunky  Dory"` and a decomposed `"Café"` import as the same text the library already holds.
public struct NormalizeStage: ImportStage {
    public init() {}

    public var name: String { "normalize" }

    public mutating func process(_ item: ImportItem) async throws -> StageDecision {
        var item = item
        item.record.title = Self.normalized(item.record.title)
        item.record.artist = Self.normalized(item.record.artist)
        item.record.genre = Self.normalized(item.record.genre)
        for field in AlbumField.scalars where field.kind == .text {
            if let value = item.record[field] { item.record[field] = Self.normalized(value) }
        }
        return .pass(item)
    }

    /// `text` trimmed, composed (NFC), with runs of white space made one space.
    public static func normalized(_ text: String) -> String {
        // Plain ASCII with single spaces inside is already normal: no copy (decided on the bytes:
        // Foundation's `contains("  ")` cost more than the rest of the stage).
        if isSpacedASCII(text) { return text }
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

    /// Whether `text` is printable ASCII with no space at either end nor two together (or empty).
    private static func isSpacedASCII(_ text: String) -> Bool {
        var previous = UInt8(ascii: " ")
        for byte in text.utf8 {
            guard (0x20..<0x7F).contains(byte), byte != 0x20 || previous != 0x20 else { return false }
            previous = byte
        }
        return previous != 0x20 || text.isEmpty
    }
}

extension ImportStageFactory {
    /// `normalize`: trimmed, NFC, single inner spaces.
    public static let normalize = ImportStageFactory(
        name: "normalize", summary: "trims, composes to Unicode NFC, and makes inner runs of white space one space"
    ) { _ in NormalizeStage() }
}
