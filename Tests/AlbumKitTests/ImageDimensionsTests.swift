import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// Width and height from the header of images real encoders (ffmpeg's) wrote, and the
/// `covers.minPixels` / `covers.maxAspect` check a found cover passes or fails.
@Suite struct ImageDimensionsTests {
    private func image(_ width: Int, _ height: Int, _ kind: String, _ options: [String] = [], source: String? = nil) async throws -> Data {
        try await TestImages.make(width, height, kind, options: options, source: source)
    }

    @Test(arguments: [
        ("png", [String]()), ("jpg", []), ("gif", []), ("webp", []), ("webp", ["-lossless", "1"]),
        ("jpg", ["-q:v", "2", "-pix_fmt", "yuvj444p"]),
    ])
    func theHeaderGivesTheSize(_ kind: String, _ options: [String]) async throws {
        for (width, height) in [(640, 480), (302, 1200), (2, 2), (16382, 2)] {
            let bytes = try await image(width, height, kind, options)
            #expect(ImageDimensions(reading: bytes) == ImageDimensions(width: width, height: height), "\(kind) \(options) \(width)×\(height)")
        }
    }

    @Test func anExtendedWebPIsReadFromItsCanvas() async throws {
        let bytes = try await image(500, 400, "webp", source: "color=c=0x33669980:s=500x400,format=yuva420p")
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "VP8X", "a WebP with see-through pixels is extended")
        #expect(ImageDimensions(reading: bytes) == ImageDimensions(width: 500, height: 400))
    }

    @Test func cutShortOrNotAnImageGivesNothing() async throws {
        for (kind, cut) in [("png", 20), ("jpg", 40), ("gif", 8), ("webp", 26)] {
            let bytes = try await image(640, 480, kind)
            #expect(ImageDimensions(reading: bytes) != nil)
            #expect(ImageDimensions(reading: bytes.prefix(cut)) == nil, "\(kind) cut inside its header")
        }
        #expect(ImageDimensions(reading: Data([0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 60))) == nil, "a zip")
        #expect(ImageDimensions(reading: Data([0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0, 0])) == nil, "a JPEG scan with no frame header")
        #expect(ImageDimensions(reading: Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0])) == nil, "a JPEG segment of length 0")
    }

    @Test func aFoundCoverIsCheckedBySizeAndShape() async throws {
        let covers = Configuration(environment: [:]).covers
        #expect(covers.minPixels == 300 && covers.maxAspect == 1.15)
        #expect(covers.problem(withFoundImage: try await image(600, 600, "jpg")) == nil)
        #expect(covers.problem(withFoundImage: try await image(320, 300, "png")) == nil, "1.07: about square")
        #expect(covers.problem(withFoundImage: try await image(250, 250, "jpg")) == "250×250 pixels, smaller than covers.minPixels (300)")
        #expect(covers.problem(withFoundImage: try await image(2, 4000, "png")) == "2×4000 pixels, smaller than covers.minPixels (300)")
        #expect(covers.problem(withFoundImage: try await image(1200, 400, "gif")) == "1200×400 pixels, longer than covers.maxAspect (1.15) allows")
        #expect(covers.problem(withFoundImage: Data("<html>".utf8)) == "not a JPEG, PNG, GIF or WebP image (6 bytes starting 3c68746d6c3e)")
    }
}
