import AlbumKit
import Foundation

/// `checksums.sha256`: one `sha256sum` line (`<64 hex>  <path>`, or ` *<path>` for binary
/// mode) for every other file of a bundle.
struct ChecksumList {
    /// One line: the path it names, the digest it expects, and its 1-based line number.
    struct Line {
        let path: EntryPath
        let digest: SHA256Words
        let number: Int
    }

    /// The entry name, at the bundle's root.
    static let entryName = "checksums.sha256"

    let lines: [Line]

    /// Parses the list line by line from its bytes (a list of 100 000 covers is 10 MB: it is
    /// never copied whole into a string), as `sha256sum -c` reads it: LF or CRLF line ends, a
    /// byte order mark skipped; `subject` names the entry in errors.
    init(parsing data: Data, subject: String) throws(AlbumKitError) {
        var lines: [Line] = []
        var number = 0
        var rest = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            var line = rest[..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
            number += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.isEmpty { continue }
            lines.append(try Self.line(line, number: number, subject: subject))
        }
        self.lines = lines
    }

    private static func line(_ line: Data, number: Int, subject: String) throws(AlbumKitError) -> Line {
        let separator = line.dropFirst(64).prefix(2)
        guard let digest = line.prefix(64).withUnsafeBytes({ SHA256Words(hex: $0.bindMemory(to: UInt8.self), ignoringCase: true) }), separator.elementsEqual("  ".utf8) || separator.elementsEqual(" *".utf8) else {
            throw AlbumKitError(.unreadableInput, "\(subject) line \(number): not a sha256sum line ('\(String(decoding: line, as: UTF8.self).prefix(80))')")
        }
        guard let name = String(validating: line.dropFirst(66), as: UTF8.self) else {
            throw AlbumKitError(.unreadableInput, "\(subject) line \(number): the name is not UTF-8 text")
        }
        return Line(path: try EntryPath(name, subject: "\(subject) line \(number)"), digest: digest, number: number)
    }
}
