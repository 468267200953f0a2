@testable import AlbumKit
import Testing

/// The word-at-a-time scan of a field's bytes agrees with looking at each byte alone.
@Suite struct FieldBytesTests {
    /// Every byte value at every position of texts of 0 to 19 bytes (whole words, a tail, and
    /// both), among printable ASCII and among bytes beyond ASCII.
    @Test func agreesWithEachByteAlone() {
        for length in 0..<20 {
            for fill: UInt8 in [UInt8(ascii: "a"), 0xC3] {
                for position in 0..<max(length, 1) {
                    for byte in UInt8.min...UInt8.max {
                        var bytes = [UInt8](repeating: fill, count: length)
                        if length > 0 { bytes[position] = byte }
                        let scan = bytes.withUnsafeBufferPointer(FieldBytes.init)
                        #expect(scan.hasControl == bytes.contains(where: FieldBytes.isControl), "\(bytes)")
                        #expect(scan.hasNonASCII == bytes.contains { $0 >= 0x80 }, "\(bytes)")
                    }
                }
            }
        }
    }

    /// Bytes just around the edges (tab, 0x1F, space, DEL, 0x80) next to each other in one word,
    /// where a borrow from one byte could spill into the next.
    @Test func neighboursDoNotHideOrInventAControlCharacter() {
        let edges: [UInt8] = [0x00, 0x08, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0xFF]
        for first in edges {
            for second in edges {
                for offset in 0..<7 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "z"), count: 8)
                    bytes[offset] = first
                    bytes[offset + 1] = second
                    let scan = bytes.withUnsafeBufferPointer(FieldBytes.init)
                    #expect(scan.hasControl == (FieldBytes.isControl(first) || FieldBytes.isControl(second)), "\(bytes)")
                }
            }
        }
    }

    /// Albums refuse control characters and take tabs and non-ASCII text, whatever the
    /// field's length.
    @Test func albumsKeepTheRule() throws {
        for length in [1, 7, 8, 9, 16, 23] {
            let text = String(repeating: "é", count: length / 2) + String(repeating: "a", count: length - length / 2)
            #expect(try Album(id: "a1", title: text + "\t" + text, artist: "A").title == text + "\t" + text)
            #expect(throws: AlbumKitError.self) { try Album(id: "a1", title: text + "\u{7F}" + text, artist: "A") }
            #expect(throws: AlbumKitError.self) { try Album(id: "a1", title: "T", artist: text + "\u{1B}" + text) }
            #expect(throws: AlbumKitError.self) { try Album(id: "a1", title: "T", artist: "A", coverUrl: "covers/" + text + "\u{0}.jpg") }
        }
    }
}
