import SourceSupport
import Testing

/// `trimmed`, which every source applies to the values it reads: a value that starts and ends
/// with a printable ASCII character comes back as it is; any other is trimmed of Unicode white
/// space and line breaks.
@Suite struct TrimmedTests {
    @Test(arguments: [
        ("Blue Train", "Blue Train"), ("", ""), (" a", "a"), ("a ", "a"), ("\ta\n", "a"), ("\u{A0}a\u{2003}", "a"), ("\u{3000}", ""),
        ("é", "é"), ("a\u{2028}", "a"), ("x", "x"), ("Ríos", "Ríos"), ("東京", "東京"), ("東京\u{3000}", "東京"), ("\u{85}é", "é"),
        ("é\u{2029}", "é"), ("\u{1680}東", "東"), ("é\u{200A}", "é"),
    ])
    func trimsWhiteSpaceAndLineBreaksAround(_ text: String, _ expected: String) {
        #expect(text.trimmed == expected, "\(text.debugDescription)")
    }
}
