import AlbumKit
import Foundation

/// `checksums.sha256`: one `sha256sum` line (`<64 hex>  <path>`, or ` *<path>` for binary
/// mode) for every other file of a bundle.
struct ChecksumList {
    /// One line: the path it names, the digest it expects, and its 1-based line number.
    struct Line {
        let path: EntryPath
        let digest: String
        let number: Int
    }

    /// The entry name, at the bundle's root.
    static let entryName = "checksums.sha256"

    let lines: [Line]

    /// Parses the list; `subject` names the entry in errors.
    init(parsing data: Data, subject: String) throws(AlbumKitError) {
        guard let text = String(data: data, encoding: .utf8) else {
            throw AlbumKitError(.unreadableInput, "\(subject): not UTF-8 text")
        }
        var lines: [Line] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if line.isEmpty { continue }
            let digest = line.prefix(64)
            let rest = line.dropFirst(64)
            guard digest.count == 64, digest.allSatisfy(\.isHexDigit), rest.hasPrefix("  ") || rest.hasPrefix(" *") else {
                throw AlbumKitError(.unreadableInput, "\(subject) line \(index + 1): not a sha256sum line ('\(line.prefix(80))')")
            }
            let name = String(rest.dropFirst(2))
            let path = try EntryPath(name, subject: "\(subject) line \(index + 1)")
            lines.append(Line(path: path, digest: digest.lowercased(), number: index + 1))
        }
        self.lines = lines
    }
}
