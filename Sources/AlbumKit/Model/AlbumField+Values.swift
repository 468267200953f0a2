#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rules of each kind of optional field: what text it takes and how that text is kept.
extension AlbumField {
    /// `text` as this field keeps it, or an error naming `album` and the field: trimmed and
    /// checked; a rating as `4.5` or `4`; a moment as `2024-01-02T03:04:05Z`. Only the optional
    /// one-value fields (``scalars``) take text this way.
    func canonical(_ text: String, album: @autoclosure () -> String) throws(AlbumKitError) -> String {
        switch kind {
        case .notes:
            return try FieldRules.text(text, field: name, album: album(), required: false, lineBreaks: true)
        case .date:
            let trimmed = text.trimmingWhiteSpace()
            guard Self.isDate(trimmed) else {
                throw .invalidAlbum(album(), field: name, "must be YYYY, YYYY-MM or YYYY-MM-DD, a real date, not '\(trimmed.prefix(40))'")
            }
            return trimmed
        case .rating:
            let trimmed = text.trimmingWhiteSpace()
            guard let value = Double(trimmed), let canonical = Self.ratingText(value) else {
                throw .invalidAlbum(album(), field: name, "must be a number from 0.5 to 5 in steps of 0.5, not '\(trimmed.prefix(40))'")
            }
            return canonical
        case .timestamp:
            let trimmed = text.trimmingWhiteSpace()
            guard let canonical = Self.timestampText(trimmed) else {
                throw .invalidAlbum(album(), field: name, "must be an RFC 3339 date and time (2024-01-02T03:04:05Z), not '\(trimmed.prefix(40))'")
            }
            return canonical
        default:
            return try FieldRules.text(text, field: name, album: album(), required: false)
        }
    }

    /// `4.5` or `4` for a rating on the scale, nil for any other number.
    static func ratingText(_ value: Double) -> String? {
        guard value.isFinite, value >= 0.5, value <= 5, (value * 2).rounded() == value * 2 else { return nil }
        return value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Whether `text` is `YYYY`, `YYYY-MM` or `YYYY-MM-DD` naming a real month and day.
    static func isDate(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isDate($0) }
    }

    /// Whether the UTF-8 `bytes` are `YYYY`, `YYYY-MM` or `YYYY-MM-DD` naming a real month and day.
    static func isDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Asked of every release date and moment an import checks: read on the bytes in place,
        // with nothing split off or parsed into new strings.
        guard bytes.count == 4 || bytes.count == 7 || bytes.count == 10, let year = digits(bytes, 0..<4) else { return false }
        guard bytes.count > 4 else { return true }
        guard bytes[4] == 0x2D, let month = digits(bytes, 5..<7), (1...12).contains(month) else { return false }
        guard bytes.count > 7 else { return true }
        guard bytes[7] == 0x2D, let day = digits(bytes, 8..<10) else { return false }
        return (1...daysIn(month: month, year: year)).contains(day)
    }

    /// The number the ASCII digits at `range` of `bytes` write, or nil when one is not a digit.
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// An RFC 3339 date and time (`T` or a space between; `Z` or an offset; fractions of a
    /// second dropped) as the same moment in UTC, `YYYY-MM-DDTHH:MM:SSZ`; nil when it is not one.
    static func timestampText(_ text: String) -> String? {
        // Most moments arrive as this writes them (a library's, an export's, an import's after its
        // source wrote them so): given back as they are, not parsed and written again.
        if isCanonicalTimestamp(text) { return text }
        guard let seconds = timestampSeconds(text) else { return nil }
        return formatTimestamp(seconds)
    }

    /// Whether `text` is `YYYY-MM-DDTHH:MM:SSZ` naming a real moment (no leap second): what
    /// ``formatTimestamp(_:)`` writes for it, the text ``timestampText(_:)`` gives for it.
    private static func isCanonicalTimestamp(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == 20, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A,
                let hour = Self.digits(bytes, 11..<13), let minute = Self.digits(bytes, 14..<16), let second = Self.digits(bytes, 17..<19),
                hour < 24, minute < 60, second < 60
            else { return false }
            return isDate(UnsafeBufferPointer(rebasing: bytes[0..<10]))
        }
    }

    /// Seconds since 1970 of an RFC 3339 date and time, or nil.
    static func timestampSeconds(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, [0x54, 0x74, 0x20].contains(bytes[10]),
                bytes[13] == 0x3A, bytes[16] == 0x3A,
                let year = digits(bytes, 0..<4), let month = digits(bytes, 5..<7), let day = digits(bytes, 8..<10),
                let hour = digits(bytes, 11..<13), let minute = digits(bytes, 14..<16), let second = digits(bytes, 17..<19),
                isDate(UnsafeBufferPointer(rebasing: bytes[0..<10])), hour < 24, minute < 60, second < 61
            else { return nil }
            var rest = 19
            if rest < bytes.count, bytes[rest] == 0x2E {
                rest += 1
                let fraction = rest
                while rest < bytes.count, (0x30...0x39).contains(bytes[rest]) { rest += 1 }
                guard rest > fraction else { return nil }
            }
            var offset = 0
            if rest == bytes.count - 1, bytes[rest] == 0x5A || bytes[rest] == 0x7A {
                offset = 0
            } else if rest == bytes.count - 6, bytes[rest] == 0x2B || bytes[rest] == 0x2D, bytes[rest + 3] == 0x3A,
                let hours = digits(bytes, rest + 1..<rest + 3), let minutes = digits(bytes, rest + 4..<rest + 6), hours < 24, minutes < 60
            {
                offset = (hours * 60 + minutes) * 60 * (bytes[rest] == 0x2B ? 1 : -1)
            } else {
                return nil
            }
            var parts = tm()
            parts.tm_year = Int32(year - 1900)
            parts.tm_mon = Int32(month - 1)
            parts.tm_mday = Int32(day)
            parts.tm_hour = Int32(hour)
            parts.tm_min = Int32(minute)
            parts.tm_sec = Int32(min(second, 59))
            return Int(timegm(&parts)) - offset
        }
    }

    /// `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SSZ`.
    static func formatTimestamp(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(Int(parts.tm_year) + 1900)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Whether `name` may name an entry of `ids`: `[a-z][A-Za-z0-9]*`.
    public static func isIDName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (0x61...0x7A).contains(first), name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// Whether `name` may name an entry of `fields`: names as in `ids`, joined by dots
    /// (`discogs.folder`).
    public static func isFieldName(_ name: String) -> Bool {
        // Checked for every entry of every album read: on the bytes, with no part copied.
        guard name.utf8.count <= 256 else { return false }
        var partLength = 0
        for byte in name.utf8 {
            if byte == UInt8(ascii: ".") {
                guard partLength > 0 else { return false }
                partLength = 0
            } else {
                let letterOrDigit = (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
                guard letterOrDigit, partLength > 0 || (0x61...0x7A).contains(byte), partLength < 64 else { return false }
                partLength += 1
            }
        }
        return partLength > 0
    }
}

/// The sizes SPEC 1 allows an album.
public enum AlbumLimits {
    /// Tracks of one album.
    public static let tracks = 1_000
    /// Entries of `fields`, on the album and on each track.
    public static let fields = 256
    /// Entries of `ids`.
    public static let ids = 64
    /// Entries of `tags`.
    public static let tags = 64
    /// UTF-8 bytes of one text.
    public static let textBytes = FieldRules.maxBytes
    /// UTF-8 bytes of the whole album written as JSON.
    public static let albumBytes = 4 * 1024 * 1024
}
