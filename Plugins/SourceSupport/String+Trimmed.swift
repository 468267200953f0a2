import Foundation

extension String {
    /// The text without white space or line breaks around it.
    public var trimmed: String {
        // Most values start and end with a printable ASCII character: nothing to trim, and no trip
        // through Foundation's NSString (a source trims every value it reads).
        // An empty one (a row's empty columns) as well.
        guard let head = utf8.first, let tail = utf8.last else { return self }
        if head > 0x20, head < 0x7F, tail > 0x20, tail < 0x7F { return self }
        // So does one that starts and ends with a letter of any script (`Ríos`, `東京`): no letter
        // is white space or a line break.
        if let first = unicodeScalars.first, let last = unicodeScalars.last, Self.isKeptAtAnEnd(first), Self.isKeptAtAnEnd(last) {
            return self
        }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A printable ASCII character, or a letter of any script.
    private static func isKeptAtAnEnd(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? (0x21..<0x7F).contains(scalar.value) : scalar.properties.isAlphabetic
    }
}
