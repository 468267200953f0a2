import Crypto
import Foundation

/// SHA-256 as lower-case hex, through swift-crypto.
public enum SHA256Digest {
    /// The hex digits, by value.
    private static let digits = Array("0123456789abcdef".utf8)

    /// The hex digest of `bytes`.
    public static func hex(of bytes: Data) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// The hex form of a finished digest, or of any digest's bytes.
    public static func hex(_ digest: some Sequence<UInt8>) -> String {
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `text` as a digest in lower-case hex when it is exactly 64 ASCII hex digits in either
    /// case; nil for anything else.
    public static func lowercasedHex(_ text: some Collection<UInt8>) -> String? {
        // A digit keeps its bit 0x20 set; it turns A-F into a-f.
        guard text.count == 64, text.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }) else { return nil }
        return String(unsafeUninitializedCapacity: 64) { buffer in
            for (index, byte) in text.enumerated() { buffer[index] = byte | 0x20 }
            return 64
        }
    }
}
