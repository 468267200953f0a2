import Foundation

/// Byte counts in human units, as `du -h` and `ls -lh` show them but in decimal units:
/// `512 B`, `1.4 MB`, `141 MB`, `2.3 GB`.
enum ByteCount {
    /// `count` in the largest unit that keeps it at least 1.
    static func format(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB", "PB"]
        var value = Double(count)
        var unit = 0
        while abs(value) >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        let rounded = abs(value) < 9.95 ? (value * 10).rounded() / 10 : value.rounded()
        let digits = abs(value) < 9.95 ? String(format: "%.1f", rounded) : String(Int(rounded))
        return "\(digits) \(units[unit])"
    }

    /// `count` in human units.
    static func format(_ count: Int) -> String { format(Int64(count)) }
}
