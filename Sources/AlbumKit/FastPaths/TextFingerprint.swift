/// A 128-bit fingerprint of a text, kept where work must remember a text for every item of a
/// large input: a reader, every entry's path of an archive (whether a name came twice, each
/// file's SHA-256); `dedupe`, every album's duplicate key. Sixteen bytes whatever the text's
/// length, where a path kept as a `String` takes its bytes and the string's own storage.
///
/// Two SipHash values of the text under the process's random seed (`Hasher`): two texts share
/// a fingerprint with odds of 2⁻¹²⁸, and an input cannot be made to collide on purpose.
package struct TextFingerprint: Hashable, Sendable {
    private let first: Int
    private let second: Int

    /// The fingerprint of `text`.
    package init(_ text: String) {
        var first = Hasher()
        first.combine(0 as UInt8)
        first.combine(text)
        var second = Hasher()
        second.combine(1 as UInt8)
        second.combine(text)
        self.first = first.finalize()
        self.second = second.finalize()
    }

    /// Bits of the fingerprint that pick a slot in a table of them (``FingerprintTable``).
    var slotBits: Int { first }
}
