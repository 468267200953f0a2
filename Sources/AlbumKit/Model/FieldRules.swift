/// The rules of SPEC section 1 for one text: its size, control characters, the core fields shapes.
enum FieldRules {
    /// The largest a field may be, in UTF-8 bytes.
    static let maxBytes = 64 * 1024

    /// `value` trimmed, when it is within the size limit and holds no control character (but
    /// tab, and line breaks where `lineBreaks`); `required` refuses an empty one. The field's
    /// name is made only for an error (`ids.discogs`, made for every entry of every map checked,
    /// was a string made for nothing).
    static func text(
        _ value: String, field: @autoclosure () -> String, album: @autoclosure () -> String, required: Bool, lineBreaks: Bool = false
    ) throws(AlbumKitError) -> String {
        let trimmed = value.trimmingWhiteSpace()
        if required && trimmed.isEmpty { throw .invalidAlbum(album(), field: field(), "is required and empty") }
        try checkCharacters(trimmed, field: field(), album: album(), lineBreaks: lineBreaks)
        return trimmed
    }

    static func year(_ value: String, album: @autoclosure () -> String) throws(AlbumKitError) -> String {
        let trimmed = value.trimmingWhiteSpace()
        guard trimmed.utf8.count <= 4, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .invalidAlbum(album(), field: "year", "must be empty or 1 to 4 digits, not '\(trimmed.prefix(20))'")
        }
        return trimmed
    }

    static func coverURL(_ value: String?, album: @autoclosure () -> String) throws(AlbumKitError) -> String? {
        guard let value = value?.trimmingWhiteSpace(), !value.isEmpty else { return nil }
        let scan = try checkCharacters(value, field: "coverUrl", album: album())
        guard isAllowedCoverURL(value, ascii: !scan.hasNonASCII) else {
            throw .invalidAlbum(album(), field: "coverUrl", "must be http(s)://…, file://… or covers/<name>, not '\(value.prefix(60))'")
        }
        return value
    }

    /// `http(s)://…`, `file://…` (any case), or `covers/<name>` with no `/` or `..` in the name.
    private static func isAllowedCoverURL(_ value: String, ascii: Bool) -> Bool {
        // ASCII, the usual case: decided on the bytes in place, with no lower-cased copy.
        if ascii {
            return value.withUTF8Bytes { bytes in
                if startsCaseless(bytes, "http://") || startsCaseless(bytes, "https://") || startsCaseless(bytes, "file://") { return true }
                let folder = CoverReference.folder.utf8.count
                guard bytes.count > folder, CoverReference.isInFolder(bytes) else { return false }
                var previous: UInt8 = 0
                for byte in bytes[folder...] {
                    if byte == UInt8(ascii: "/") || (byte == UInt8(ascii: ".") && previous == byte) { return false }
                    previous = byte
                }
                return true
            }
        }
        let lower = value.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("file://")
            || (CoverReference.isInFolder(value) && value.utf8.count > CoverReference.folder.utf8.count && !value.contains("..")
                && !value.utf8.dropFirst(CoverReference.folder.utf8.count).contains(UInt8(ascii: "/")))
    }

    /// Whether ASCII `bytes` start with lower-case `prefix`, in any case.
    private static func startsCaseless(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        for index in 0..<count where bytes[index] | 0x20 != prefix.utf8Start[index] { return false }
        return true
    }

    /// Refuses a value over the size limit or holding a control character; returns what the
    /// scan of its bytes found.
    @discardableResult
    private static func checkCharacters(
        _ value: String, field: @autoclosure () -> String, album: @autoclosure () -> String, lineBreaks: Bool = false
    ) throws(AlbumKitError) -> FieldBytes {
        if value.utf8.count > maxBytes {
            throw .invalidAlbum(album(), field: field(), "is \(value.utf8.count) bytes; the limit is \(maxBytes)")
        }
        let scan = value.withUTF8Bytes(FieldBytes.init)
        if scan.hasControl && (!lineBreaks || value.utf8.contains(where: { FieldBytes.isControl($0) && $0 != 0x0A && $0 != 0x0D })) {
            throw .invalidAlbum(album(), field: field(), "holds a control character")
        }
        return scan
    }
}

extension String {
    /// Runs `body` on the string's UTF-8 bytes: in place for a native string (every string this
    /// program makes), else on a copy. Loops over them are several times faster than over `utf8`.
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }

    /// The string without leading and trailing white space and newlines.
    func trimmingWhiteSpace() -> String {
        // Most values start and end with an ASCII letter: nothing to trim, nothing to copy.
        if let head = utf8.first, let tail = utf8.last, !head.isASCIIWhiteSpaceOrNonASCII, !tail.isASCIIWhiteSpaceOrNonASCII {
            return self
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}

extension UInt8 {
    /// Whether this UTF-8 byte is ASCII white space (tab to carriage return, space) or not
    /// ASCII at all (then only the Unicode properties can tell).
    var isASCIIWhiteSpaceOrNonASCII: Bool { self >= 0x80 || self == 0x20 || (0x09...0x0D).contains(self) }
}
