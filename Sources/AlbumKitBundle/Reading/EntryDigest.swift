import Crypto

/// A SHA-256 digest held in 32 bytes, not as 64 characters of hex: a bundle reader keeps one
/// per entry and per `checksums.sha256` line until the end, 100 000 of each in a large bundle.
struct EntryDigest: Hashable, CustomStringConvertible {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest a hasher finished with.
    init(_ digest: SHA256.Digest) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { target in digest.withUnsafeBytes { target.copyMemory(from: $0) } }
        self.words = words
    }

    /// The digest 64 hex digits spell (either case); nil for anything else.
    init?(hex: some Collection<UInt8>) {
        guard hex.count == 64 else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &words) { target in
            var index = 0
            var high: UInt8?
            for character in hex {
                guard let value = Self.value(of: character) else { return false }
                if let first = high {
                    target[index] = first << 4 | value
                    index += 1
                    high = nil
                } else {
                    high = value
                }
            }
            return true
        }
        guard parsed else { return nil }
        self.words = words
    }

    /// Lower-case hex, as `sha256sum` writes it.
    var description: String {
        let digits = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: words) { bytes in
            String(unsafeUninitializedCapacity: 64) { text in
                for (index, byte) in bytes.enumerated() {
                    text[2 * index] = digits[Int(byte >> 4)]
                    text[2 * index + 1] = digits[Int(byte & 0xF)]
                }
                return 64
            }
        }
    }

    static func == (lhs: EntryDigest, rhs: EntryDigest) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
