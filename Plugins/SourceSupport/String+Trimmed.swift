import Foundation

extension String {
    /// The text without white space or line breaks around it.
    public var trimmed: String {
        // Most values start and end with an ASCII letter or digit: nothing to trim, and no trip
        // through Foundation's NSString (a source trims every value it reads).
        // An empty one (a row's empty columns) as well.
        guard let head = utf8.first, let tail = utf8.last else { return self }
        if head > 0x20, head < 0x7F, tail > 0x20, tail < 0x7F { return self }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
