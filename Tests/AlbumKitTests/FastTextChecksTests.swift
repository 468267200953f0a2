import AlbumKit
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
    ])
    func normalizedTextIsTrimmedComposedAndSingleSpaced(_ text: String, _ expected: String) {
        #expect(NormalizeStage.normalized(text) == expected, "\(text.debugDescription)")
    }

    @Test func fieldsAreFoundByNameIgnoringCase() {
        #expect(AlbumField.named("catalogNumber") == .catalogNumber)
        #expect(AlbumField.named("CATALOGNUMBER") == .catalogNumber)
        #expect(AlbumField.named("catalognumber") == .catalogNumber)
        #expect(AlbumField.named("catalog") == nil)
    }
}
