import Foundation

/// An image's width and height in pixels, read from its header (PNG, JPEG, GIF, WebP)
/// without decoding it: enough to pass over a thumbnail or a banner a lookup found
/// (`covers.minPixels`, `covers.maxAspect`) before it is stored.
public struct ImageDimensions: Sendable, Hashable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The dimensions the header of `bytes` gives, or nil when `bytes` is not one of the four
    /// kinds, or its header is cut short or says nothing sensible (a zero side).
    public init?(reading bytes: Data) {
        let bytes = [UInt8](bytes.prefix(Self.headerLimit))
        let found: (Int, Int)?
        switch ImageKind(sniffing: Data(bytes.prefix(12))) {
        case .png: found = Self.png(bytes)
        case .jpeg: found = Self.jpeg(bytes)
        case .gif: found = Self.gif(bytes)
        case .webp: found = Self.webp(bytes)
        case nil: found = nil
        }
        guard let (width, height) = found, width > 0, height > 0 else { return nil }
        self.init(width: width, height: height)
    }

    /// The longer side divided by the shorter.
    public var aspect: Double { Double(max(width, height)) / Double(min(width, height)) }

    public var description: String { "\(width)×\(height)" }

    /// How far into a file its dimensions are looked for: a JPEG's frame header can follow
    /// large EXIF and ICC segments, but not megabytes of them.
    static let headerLimit = 1 << 20

    // PNG: the IHDR chunk comes first, width and height big-endian at 16 and 20.
    private static func png(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 24, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return (bigEndian(b, 16, 4), bigEndian(b, 20, 4))
    }

    // GIF: the logical screen size, little-endian at 6 and 8.
    private static func gif(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 10 else { return nil }
        return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
    }

    // JPEG: the segments after SOI up to the first start-of-frame (SOF0–SOF15 but DHT,
    // JPG and DAC), whose height and width are big-endian at 3 and 5 of its payload.
    private static func jpeg(_ b: [UInt8]) -> (Int, Int)? {
        var index = 2
        while index + 4 <= b.count {
            guard b[index] == 0xFF else { return nil }
            let marker = b[index + 1]
            if marker == 0xFF { index += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { index += 2; continue }  // no length
            if marker == 0xD9 || marker == 0xDA { return nil }  // end of image, start of scan: no frame header before
            let length = bigEndian(b, index + 2, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 9 <= b.count else { return nil }
                return (bigEndian(b, index + 7, 2), bigEndian(b, index + 5, 2))
            }
            index += 2 + length
        }
        return nil
    }

    // WebP: RIFF, then a VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk at 12.
    private static func webp(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 30 else { return nil }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8 ":
            // The frame tag (3 bytes), the start code 9d 01 2a, then 14-bit sizes.
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return (littleEndian(b, 26, 2) & 0x3FFF, littleEndian(b, 28, 2) & 0x3FFF)
        case "VP8L":
            // The signature 0x2f, then width-1 and height-1 in 14 bits each.
            guard b[20] == 0x2F else { return nil }
            let bits = littleEndian(b, 21, 4)
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            // Flags (4 bytes), then canvas width-1 and height-1 in 24 bits each.
            return (littleEndian(b, 24, 3) + 1, littleEndian(b, 27, 3) + 1)
        default:
            return nil
        }
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        b[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        b[at..<at + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}

extension Configuration.Covers {
    /// Why `bytes` would not do as a cover a lookup found: not an image of the four kinds, a
    /// header without sensible dimensions, a side under `minPixels`, or a longer side more
    /// than `maxAspect` times the shorter; nil when it will do.
    public func problem(withFoundImage bytes: Data) -> String? {
        guard ImageKind(sniffing: bytes) != nil else { return ImageKind.notAnImage(bytes) }
        guard let size = ImageDimensions(reading: bytes) else { return "an image whose header gives no width and height" }
        if min(size.width, size.height) < minPixels {
            return "\(size) pixels, smaller than covers.minPixels (\(minPixels))"
        }
        if size.aspect > maxAspect {
            return "\(size) pixels, longer than covers.maxAspect (\(maxAspect)) allows"
        }
        return nil
    }
}
