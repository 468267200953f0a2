/// An album's cover reference as the album keeps it. A stored cover's bundle path as this
/// program writes it — `covers/`, 64 lower-case hex digits, `.` and an ``ImageKind``'s
/// extension — is kept as the digest's 32 bytes and the kind; any other reference as its text.
/// Most albums of a large library name a stored cover, and as text each name was a 75-byte
/// string of its own (BENCHMARKS.md).
///
/// A text is kept as stored only when writing it back gives the same text, so each reference
/// has one form, and two albums are equal exactly when their references' texts are.
package enum CoverReference: Hashable, Sendable {
    case stored(SHA256Words, ImageKind)
    case text(String)

    /// The folder a cover the library keeps is named in, in a library and in a bundle, as a
    /// reference spells it: `covers/<name>` is looked up in the cover store, never fetched.
    package static let folder = "covers/"
    /// ``folder``'s bytes, compared with every album's reference as it is read.
    private static let folderBytes = Array(folder.utf8)
    /// `covers/` + 64 hex digits + `.`, before the extension.
    private static let storedPrefixCount = folderBytes.count + 65

    /// Whether `reference` (an album's cover, or a path in a bundle) names a file in the
    /// covers ``folder`` rather than something to fetch.
    package static func isInFolder(_ reference: String) -> Bool { reference.utf8.starts(with: folderBytes) }

    /// ``isInFolder(_:)`` on a reference's UTF-8 bytes.
    package static func isInFolder(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { bytes.starts(with: folderBytes) }
    /// The image kinds, made once (every album read is looked up in them).
    private static let kinds = ImageKind.allCases

    /// The reference `text` spells.
    init(_ text: String) {
        var text = text
        self = text.withUTF8(Self.stored) ?? .text(text)
    }

    /// A stored cover's bundle path, or nil.
    private static func stored(_ bytes: UnsafeBufferPointer<UInt8>) -> CoverReference? {
        guard bytes.count > storedPrefixCount, isInFolder(bytes), bytes[storedPrefixCount - 1] == UInt8(ascii: "."),
            let words = SHA256Words(hex: UnsafeBufferPointer(rebasing: bytes[folderBytes.count..<storedPrefixCount - 1]), ignoringCase: false)
        else { return nil }
        let fileExtension = UnsafeBufferPointer(rebasing: bytes[storedPrefixCount...])
        guard let kind = kinds.first(where: { fileExtension.elementsEqual($0.rawValue.utf8) }) else { return nil }
        return .stored(words, kind)
    }

    /// The reference as text.
    var text: String {
        switch self {
        case .stored: withUTF8 { String(decoding: $0, as: UTF8.self) }
        case .text(let text): text
        }
    }

    /// The stored cover the reference names when it is a bundle path (`covers/<sha256>.<ext>`,
    /// either case), as ``CoverKey/init(fileName:)`` reads it.
    var storedKey: CoverKey? {
        switch self {
        case .stored(let words, let kind): CoverKey(words, fileExtension: kind.fileExtension)
        case .text(let text): CoverKey(fileName: text)
        }
    }

    /// Calls `body` with the text's UTF-8 bytes, made on the stack for a stored cover.
    package func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        switch self {
        case .stored(let words, let kind):
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.storedPrefixCount + 4) { buffer in
                var count = 0
                for byte in Self.folderBytes { buffer[count] = byte; count += 1 }
                words.writeHex(into: UnsafeMutableBufferPointer(rebasing: buffer[count..<count + 64]))
                count += 64
                buffer[count] = UInt8(ascii: ".")
                count += 1
                for byte in kind.rawValue.utf8 { buffer[count] = byte; count += 1 }
                return try body(UnsafeBufferPointer(rebasing: buffer[..<count]))
            }
        case .text(var text):
            try text.withUTF8(body)
        }
    }
}
