/// An album's details as the text a store kept of them (``Album/detailsJSON``), known to be
/// byte for byte what ``JSONOutput/details(of:)`` would write for the details it holds: an
/// export copies its members into each album object as they are, rather than parse the text
/// into ``AlbumDetails`` and write it back (BENCHMARKS.md: the `.tar.zst` export).
///
/// Only ``init(_:)`` makes one, and it accepts a text only when reading it and writing it back
/// could not change a byte: no white space, the fields in the writer's order, no empty or null
/// value the writer would leave out, strings escaped as the writer escapes them, names of
/// `ids` and `fields` in ASCII byte order, numbers as `Double` writes them. Anything else (a
/// text another writer kept, a hand-edited row) is nil, and is parsed and written as before;
/// the check may turn away a text the writer could have written, never accept one it could not.
///
/// For this package's own modules, not part of the toolkit's API.
package struct WriterFormDetails: Sendable {
    /// The text, in the writer's form.
    package let text: String
    /// The object's members (`"name":value`) in order, as the check found them: an album
    /// written with this text copies each in place without reading the text again.
    let members: [Member]

    /// One member of the object: its field and where its bytes lie in the text's UTF-8.
    struct Member: Sendable {
        /// The field's place in ``AlbumField/sortedByName``.
        let field: UInt8
        let start: Int32
        let end: Int32
    }

    /// `text` when it is in the writer's form, else nil.
    package init?(_ text: String) {
        var text = text
        var members: [Member] = []
        guard text.withUTF8({ Self.members(of: $0) { members.append($0) } }) else { return nil }
        self.text = text
        self.members = members
    }

    /// Hands each member of the object to `member`, in order; returns false, part way, when
    /// `utf8` is not in the writer's form.
    private static func members(of utf8: UnsafeBufferPointer<UInt8>, _ member: (Member) -> Void) -> Bool {
        guard utf8.count <= Int32.max else { return false }
        var scan = FormScan(bytes: utf8)
        guard scan.take("{") else { return false }
        var next = 0
        repeat {
            let start = scan.index
            guard let field = scan.fieldName(after: &next), scan.take(":"), scan.value(of: field.kind) else { return false }
            member(Member(field: UInt8(next - 1), start: Int32(start), end: Int32(scan.index)))
        } while scan.take(",")
        return scan.take("}") && scan.index == utf8.count
    }
}

/// A walk over text that checks it is in ``JSONOutput``'s form as it goes.
private struct FormScan {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// Steps over `byte` when it comes next.
    mutating func take(_ byte: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(byte.value) else { return false }
        index += 1
        return true
    }

    /// A quoted field name beyond the core six, coming after those of ``AlbumField/sortedByName``
    /// before `next`, which it moves past the field.
    mutating func fieldName(after next: inout Int) -> AlbumField? {
        guard take("\""), let end = bytes[index...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[index..<end])
        index = end + 1
        while next < AlbumField.sortedByName.count {
            let field = AlbumField.sortedByName[next]
            next += 1
            if !field.isCore, field.name.utf8.elementsEqual(name) { return field }
        }
        return nil
    }

    /// A value of a field of `kind` as the writer writes it (never empty, never null).
    mutating func value(of kind: AlbumField.Kind) -> Bool {
        switch kind {
        case .text, .date, .timestamp, .notes: return string(empty: false)
        case .rating: return number()
        case .tags: return list { $0.string(empty: true) }
        case .ids, .fields: return map()
        case .tracks: return list { $0.track() }
        case .id, .requiredText, .year, .cover: return false
        }
    }

    /// `[` one or more elements `]`.
    private mutating func list(_ element: (inout FormScan) -> Bool) -> Bool {
        guard take("[") else { return false }
        repeat {
            guard element(&self) else { return false }
        } while take(",")
        return take("]")
    }

    /// An object of one or more strings, its names in strictly rising byte order, each plain
    /// ASCII without escapes (so that byte order is the order `String` sorts them in).
    private mutating func map() -> Bool {
        guard take("{") else { return false }
        var previous: UnsafeBufferPointer<UInt8>?
        repeat {
            let start = index + 1
            guard string(empty: true) else { return false }
            let name = UnsafeBufferPointer(rebasing: bytes[start..<index - 1])
            guard !name.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }) else { return false }
            if let previous, !previous.lexicographicallyPrecedes(name) { return false }
            previous = name
            guard take(":"), string(empty: true) else { return false }
        } while take(",")
        return take("}")
    }

    /// ``TrackCoding/keys``, each name as its bytes.
    private static let trackKeys = TrackCoding.keys.map { (name: Array($0.name.utf8), value: $0.value) }

    /// A track object with its keys in the writer's order (``TrackCoding/keys``), `title` required.
    private mutating func track() -> Bool {
        guard take("{") else { return false }
        var written = false
        var titled = false
        for (name, value) in Self.trackKeys {
            let start = index
            guard !written || take(","), key(name) else {
                index = start
                continue
            }
            guard trackValue(value) else { return false }
            written = true
            titled = titled || value == .title
        }
        return titled && take("}")
    }

    /// A value under a track's key as the writer writes it.
    private mutating func trackValue(_ value: TrackCoding.Value) -> Bool {
        switch value {
        case .text: return string(empty: false)
        case .title: return string(empty: true)
        case .integer: return integer()
        case .number: return number()
        case .map: return map()
        }
    }

    /// Steps over `"name":` when it comes next.
    private mutating func key(_ name: [UInt8]) -> Bool {
        let length = name.count
        guard index + length + 3 <= bytes.count, bytes[index] == UInt8(ascii: "\""),
              bytes[index + 1 + length] == UInt8(ascii: "\""), bytes[index + 2 + length] == UInt8(ascii: ":"),
              name.elementsEqual(bytes[(index + 1)..<(index + 1 + length)])
        else { return false }
        index += length + 3
        return true
    }

    /// A string escaped as ``JSONOutput`` escapes one: quote, backslash and control characters
    /// only, each in the one form it writes.
    private mutating func string(empty: Bool) -> Bool {
        guard take("\"") else { return false }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return empty || index - 1 > start
            case ..<0x20: return false
            case UInt8(ascii: "\\"): guard escape() else { return false }
            default: continue
            }
        }
        return false
    }

    /// The rest of an escape the writer writes, after its backslash.
    private mutating func escape() -> Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            // `\u00XX`, lower-case hex, for a control character without a short form.
            guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "0"), bytes[index + 1] == UInt8(ascii: "0") else { return false }
            let hex = Array("0123456789abcdef".utf8)
            guard let high = hex.firstIndex(of: bytes[index + 2]), high < 2, let low = hex.firstIndex(of: bytes[index + 3]) else { return false }
            index += 4
            return ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(high << 4 | low)
        default:
            return false
        }
    }

    /// A whole number as `Int` writes it: no sign, no leading zero, well inside `Int64`.
    private mutating func integer() -> Bool {
        digits(upTo: 15, leadingZero: false) > 0
    }

    /// A number as ``ScalarText/text(of:)`` writes a `Double`, of the kinds whose text that
    /// surely is: no sign, no exponent, at most fifteen significant digits and four after the
    /// point (smaller numbers `Double` writes with an exponent).
    private mutating func number() -> Bool {
        let whole = digits(upTo: 15, leadingZero: false)
        guard whole > 0 else { return false }
        guard take(".") else { return true }
        let start = index
        let fraction = digits(upTo: 4, leadingZero: true)
        return fraction > 0 && bytes[start + fraction - 1] != UInt8(ascii: "0") && whole + fraction <= 15
    }

    /// Steps over up to `limit` digits (a lone `0` when not `leadingZero`); returns how many,
    /// or 0 when there are none or more than `limit`.
    private mutating func digits(upTo limit: Int, leadingZero: Bool) -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        let count = index - start
        guard count > 0, count <= limit else { return 0 }
        if !leadingZero, count > 1, bytes[start] == UInt8(ascii: "0") { return 0 }
        return count
    }
}
