import AlbumKit
import Foundation
import Testing

/// The checks every value of every album read goes through, decided on the bytes (SPEC 1's
/// names of `ids` and `fields`, the `normalize` stage's already-normal text): the same answers
/// as the rules say, at each edge.
@Suite struct FastTextChecksTests {
    @Test(arguments: [
        ("mood", true), ("discogs.folder", true), ("a1.b2C.c", true), ("itunes.playCount", true),
        (String(repeating: "a", count: 64), true), ("a." + String(repeating: "b", count: 64), true),
        ("", false), (".a", false), ("a.", false), ("a..b", false), ("A.b", false), ("a.B", false), ("1a", false), ("a.1b", false),
        ("a-b", false), ("a b", false), ("é", false), (String(repeating: "a", count: 65), false),
        ("a." + String(repeating: "b", count: 65), false), (Array(repeating: "abc", count: 65).joined(separator: "."), false),
    ])
    func aFieldNameIsNamesAsInIDsJoinedByDots(_ name: String, _ valid: Bool) {
        #expect(AlbumField.isFieldName(name) == valid, "\(name)")
    }

    @Test(arguments: [
        ("Plain Text", "Plain Text"), ("", ""), (" lead", "lead"), ("trail ", "trail"), ("two  spaces", "two spaces"),
        ("a\tb", "a b"), ("line\nbreak", "line break"), ("  ", ""), ("e\u{301}", "\u{E9}"), ("x", "x"), ("~!", "~!"),
        ("Motörhead", "Motörhead"), ("Ríos  Ünïcödé ", "Ríos Ünïcödé"), ("a\u{A0}b", "a b"), ("a\u{85} b", "a b"),
        ("u\u{308}\u{301}", "\u{1D8}"), ("\u{FC}\u{301}", "\u{1D8}"), ("\u{212B}", "\u{C5}"), ("a\u{2003}b", "a b"),
    ])
    func normalizedTextIsTrimmedComposedAndSingleSpaced(_ text: String, _ expected: String) {
        // Compared scalar by scalar: `==` on strings holds canonically equivalent texts equal,
        // composed or not.
        #expect(Array(NormalizeStage.normalized(text).unicodeScalars) == Array(expected.unicodeScalars), "\(text.debugDescription)")
    }

    /// The stage keeps text below U+0300 as it is, decided on its bytes: for each such scalar
    /// between two letters, the answer is what NFC and the white space rule give.
    @Test func everyScalarBelowU0300NormalizesAsNFCSays() {
        for value in UInt32(0x20)..<0x300 {
            guard let scalar = Unicode.Scalar(value), value != 0x7F else { continue }
            let text = "a\(Character(scalar))b"
            let expected = scalar.properties.isWhitespace ? "a b" : text.precomposedStringWithCanonicalMapping
            #expect(Array(NormalizeStage.normalized(text).unicodeScalars) == Array(expected.unicodeScalars), "U+\(String(value, radix: 16))")
        }
    }

    /// The stage keeps CJK unified ideographs (U+4E00 to U+9FFF) as they are, decided on their
    /// bytes: for each, and at the edges of the range, the answer is what NFC and the white space
    /// rule give; a mark that composes with a kana before it, or an ideographic space, still
    /// takes the long way.
    @Test func everyCJKUnifiedIdeographNormalizesAsNFCSays() {
        for value in UInt32(0x4DF0)..<0xA010 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a\(Character(scalar))b \(Character(scalar))"
            let expected = text.precomposedStringWithCanonicalMapping
            #expect(Array(NormalizeStage.normalized(text).unicodeScalars) == Array(expected.unicodeScalars), "U+\(String(value, radix: 16))")
        }
        for (text, expected) in [("東京", "東京"), ("東京  Moon", "東京 Moon"), ("東京\u{3000}Moon", "東京 Moon"), (" 東京 ", "東京"),
                                 ("\u{30AB}\u{3099}東京", "\u{30AC}東京"), ("東\u{301}", "東\u{301}"), ("東京\u{F900}", "東京\u{8C48}")] {
            #expect(Array(NormalizeStage.normalized(text).unicodeScalars) == Array(expected.unicodeScalars), "\(text.debugDescription)")
        }
    }

    @Test func fieldsAreFoundByNameIgnoringCase() {
        #expect(AlbumField.named("catalogNumber") == .catalogNumber)
        #expect(AlbumField.named("CATALOGNUMBER") == .catalogNumber)
        #expect(AlbumField.named("catalognumber") == .catalogNumber)
        #expect(AlbumField.named("catalog") == nil)
    }
}
