import AlbumKit
import Foundation

/// `checksums.sha256`: one `sha256sum` line (`<64 hex>  <path>`, or ` *<path>` for binary
/// mode) for every other file of a bundle.
///
/// Parsed as its bytes arrive, a line at a time, as `sha256sum -c` reads it (LF or CRLF line
/// ends, a byte order mark skipped): the list has a line for every cover and grows with the
/// bundle, so neither its text nor its lines are ever held whole.
struct ChecksumList {
    /// One line: the path it names, the digest it expects, and its 1-based line number.
    struct Line {
        let path: EntryPath
        let digest: SHA256Words
        let number: Int
    }

    /// The entry name, at the bundle's root.
    static let entryName = "checksums.sha256"

    /// Names the entry in errors.
    private let subject: String
    /// The bytes of the line whose end has not arrived yet.
    private var partial: [UInt8] = []
    private var number = 0

    /// A list read from the entry `subject` names.
    init(subject: String) {
        self.subject = subject
    }

    /// Parses each line `chunk` ends (joined to what came before it), handing it to `each`.
    mutating func read(_ chunk: UnsafeRawBufferPointer, _ each: (Line) throws(AlbumKitError) -> Void) throws(AlbumKitError) {
        var rest = chunk[...]
        while let end = rest.firstIndex(of: Self.newline) {
            partial.append(contentsOf: rest[..<end])
            try endLine(each)
            rest = rest[(end + 1)...]
        }
        partial.append(contentsOf: rest)
    }

    /// Parses the last line, which has no line end (when the text does not end with one).
    mutating func finish(_ each: (Line) throws(AlbumKitError) -> Void) throws(AlbumKitError) {
        if !partial.isEmpty { try endLine(each) }
    }

    private static let newline = UInt8(ascii: "\n")
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private mutating func endLine(_ each: (Line) throws(AlbumKitError) -> Void) throws(AlbumKitError) {
        number += 1
        defer { partial.removeAll(keepingCapacity: true) }
        var line = partial[...]
        if number == 1, line.starts(with: Self.byteOrderMark) { line = line.dropFirst(3) }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        if line.isEmpty { return }
        try each(try Self.line(line, number: number, subject: subject))
    }

    private static func line(_ line: ArraySlice<UInt8>, number: Int, subject: String) throws(AlbumKitError) -> Line {
        let separator = line.dropFirst(64).prefix(2)
        guard let digest = line.prefix(64).withUnsafeBufferPointer({ SHA256Words(hex: $0, ignoringCase: true) }), separator.elementsEqual("  ".utf8) || separator.elementsEqual(" *".utf8) else {
            throw AlbumKitError(.unreadableInput, "\(subject) line \(number): not a sha256sum line ('\(String(decoding: line, as: UTF8.self).prefix(80))')")
        }
        guard let name = String(validating: line.dropFirst(66), as: UTF8.self) else {
            throw AlbumKitError(.unreadableInput, "\(subject) line \(number): the name is not UTF-8 text")
        }
        return Line(path: try EntryPath(name, subject: "\(subject) line \(number)"), digest: digest, number: number)
    }
}
