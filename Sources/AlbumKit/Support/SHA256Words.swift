import Crypto

/// A SHA-256 digest held in its 32 bytes, not as 64 characters of hex: a stored cover's key, a
/// bundle entry's digest (a large library or bundle holds 100 000 of each at once). The bytes
/// are four big-endian words, so digests compared as numbers sort as their hex does.
package struct SHA256Words: Hashable, Comparable, Sendable, CustomStringConvertible {
    private let first, second, third, fourth: UInt64

    /// The digest a hasher finished with.
    package init(_ digest: SHA256.Digest) {
        self = digest.withUnsafeBytes(Self.init(bytes:))
    }

    /// The digest 64 hex digits spell — lower-case only, or either case when `ignoringCase` —
    /// or nil for anything else.
    package init?(hex: UnsafeBufferPointer<UInt8>, ignoringCase: Bool) {
        guard hex.count == 64 else { return nil }
        // A byte's value, or a value with a high bit set for a byte that is not a digit.
        let values = ignoringCase ? Self.eitherCase : Self.lowerCase
        let (words, invalid) = values.withUnsafeBufferPointer { values in
            var invalid: UInt8 = 0
            func word(from start: Int) -> UInt64 {
                var word: UInt64 = 0
                for byte in hex[start..<start + 16] {
                    let value = values[Int(byte)]
                    invalid |= value
                    word = word << 4 | UInt64(value & 0xF)
                }
                return word
            }
            return ((word(from: 0), word(from: 16), word(from: 32), word(from: 48)), invalid)
        }
        guard invalid & 0xF0 == 0 else { return nil }
        (first, second, third, fourth) = words
    }

    /// The digest as its four big-endian words (a scratch file's records keep it so).
    package var words: (UInt64, UInt64, UInt64, UInt64) { (first, second, third, fourth) }

    /// The digest whose four big-endian words are `words`.
    package init(words: (UInt64, UInt64, UInt64, UInt64)) {
        (first, second, third, fourth) = words
    }

    private init(bytes: UnsafeRawBufferPointer) {
        first = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        second = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        third = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        fourth = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    /// Each byte's value as a hex digit: 0x80 for a byte that is not one.
    private static let lowerCase = values(ignoringCase: false)
    private static let eitherCase = values(ignoringCase: true)

    private static func values(ignoringCase: Bool) -> [UInt8] {
        (0...255).map { (byte: UInt8) in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where ignoringCase: byte - UInt8(ascii: "A") + 10
            default: 0x80
            }
        }
    }

    package static func < (lhs: SHA256Words, rhs: SHA256Words) -> Bool {
        (lhs.first, lhs.second, lhs.third, lhs.fourth) < (rhs.first, rhs.second, rhs.third, rhs.fourth)
    }

    /// Lower-case hex, as `sha256sum` writes it.
    package var description: String {
        String(unsafeUninitializedCapacity: 64) { buffer in
            writeHex(into: buffer)
            return 64
        }
    }

    /// Writes the 64 lower-case hex digits of ``description`` into `buffer`'s first 64 bytes.
    package func writeHex(into buffer: UnsafeMutableBufferPointer<UInt8>) {
        func write(_ word: UInt64, at start: Int) {
            for digit in 0..<16 {
                let value = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * digit)) & 0xF
                buffer[start + digit] = value < 10 ? value + 0x30 : value + 0x57
            }
        }
        write(first, at: 0)
        write(second, at: 16)
        write(third, at: 32)
        write(fourth, at: 48)
    }
}
