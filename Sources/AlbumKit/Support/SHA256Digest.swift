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
}
