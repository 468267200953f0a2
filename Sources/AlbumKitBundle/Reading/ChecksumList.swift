import AlbumKit
import Foundation

/// `checksums.sha256`: one `sha256sum` line (`<64 hex>  <path>`, or ` *<path>` for binary
/// mode) for every other file of a bundle.
struct ChecksumList {
    /// One line: the path it names, the digest it expects, and its 1-based line number.
    struct Line {
        let path: EntryPath
        let digest: EntryDigest
        let number: Int
    }

    /// The entry name, at the bundle's root.
    static let entryName = "checksums.sha256"

    let lines: [Line]

    /// Parses the list line by line from its bytes (a list of 100 000 covers is 10 MB: it is
    /// never copied whole into a string); `subject` names the entry in errors.
    init(parsing data: Data, subject: String) throws(AlbumKitError) {
        var lines: [Line] = []
        let bytes = [UInt8](data)
        var number = 0
        for var line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.isEmpty { continue }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw AlbumKitError(.unreadableInput, "\(subject): not UTF-8 text")
            }
            let separator = line.dropFirst(64).prefix(2)
            guard let digest = EntryDigest(hex: line.prefix(64)), separator.elementsEqual("  ".utf8) || separator.elementsEqual(" *".utf8) else {
                throw AlbumKitError(.unreadableInput, "\(subject) line \(number): not a sha256sum line ('\(text.prefix(80))')")
            }
            let name = String(decoding: line.dropFirst(66), as: UTF8.self)
            let path = try EntryPath(name, subject: "\(subject) line \(number)")
            lines.append(Line(path: path, digest: digest, number: number))
        }
        self.lines = lines
    }
}
