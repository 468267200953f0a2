import AlbumKit
import Crypto

/// A SHA-256 digest held in 32 bytes, not as 64 characters of hex: a bundle reader keeps one
/// per entry and per `checksums.sha256` line until the end, 100 000 of each in a large bundle.
struct EntryDigest: Hashable, CustomStringConvertible {
    private let first, second, third, fourth: UInt64

    /// The digest a hasher finished with.
    init(_ digest: SHA256.Digest) {
        self = digest.withUnsafeBytes(Self.init(bytes:))
    }

    /// The digest 64 hex digits spell (either case); nil for anything else.
    init?(hex: some Collection<UInt8>) {
        guard hex.count == 64 else { return nil }
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &bytes) { target in
            var digits = hex.makeIterator()
            for index in 0..<32 {
                guard let high = digits.next().flatMap(Self.value), let low = digits.next().flatMap(Self.value) else { return false }
                target[index] = high << 4 | low
            }
            return true
        }
        guard parsed else { return nil }
        self = withUnsafeBytes(of: bytes, Self.init(bytes:))
    }

    private init(bytes: UnsafeRawBufferPointer) {
        first = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        second = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        third = bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        fourth = bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
    }

    /// Lower-case hex, as `sha256sum` writes it.
    var description: String {
        withUnsafeBytes(of: (first, second, third, fourth)) { SHA256Digest.hex($0) }
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
