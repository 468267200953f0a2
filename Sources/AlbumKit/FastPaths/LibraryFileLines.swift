import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A library file in the layout this program writes it (``LibraryDocument/writeJSON(to:)``):
/// `{"albums":[`, each album on a line of its own (`\n{…}`, separated by `,`), then
/// `],"format":"albumkit-library","state":{…},"version":2}`. A raw line break is never
/// inside a JSON string and the writer puts none inside an album, so the albums are found by
/// the line breaks alone, and one album is read without reading the others: what lets `show 5`
/// or `update 5` on a large json library read one album, and a change write the others' bytes
/// as they are (``SplicedAlbums``).
///
/// Anything else (a file written by hand or by an earlier release, a version 1 memento) is
/// not taken for this layout (`init` returns nil), and is read whole as before. An album's
/// line is read as strictly as the whole file is; a reader that refuses one reads the whole
/// file instead, which accepts it or names the problem as before.
final class LibraryFileLines: @unchecked Sendable {
    /// The file's text.
    let text: FileText
    /// Where each album's object is in ``text``, in library order.
    let albums: [Range<Int>]
    /// The memento.
    let state: LibraryState
    /// Each album's id, in library order.
    let ids: [AlbumID]

    private static let head = Array(#"{"albums":["#.utf8)
    private static let stateStart = Array(#"],"format":"albumkit-library","state":"#.utf8)
    private static let tail = Array(#","version":2}"#.utf8)

    /// The file `text` in this layout, or nil when it is not.
    init?(_ text: FileText) {
        let bytes = text.bytes
        guard bytes.count >= Self.head.count + Self.stateStart.count + Self.tail.count,
            bytes.starts(with: Self.head), bytes[(bytes.count - Self.tail.count)...].elementsEqual(Self.tail)
        else { return nil }
        let end = bytes.count - Self.tail.count
        var albums: [Range<Int>] = []
        var stateAt = Self.head.count
        if bytes[stateAt] == UInt8(ascii: "\n") {
            var start = stateAt + 1
            while true {
                guard let lineEnd = Self.find(UInt8(ascii: "\n"), in: bytes, start..<end) else {
                    // The last album's line holds the rest of the file: the list ends at the
                    // first `],"format":…` (never inside a string, whose quotes are escaped).
                    guard let close = Self.find(Self.stateStart, in: bytes, start..<end) else { return nil }
                    albums.append(start..<close)
                    stateAt = close
                    break
                }
                guard lineEnd > start, bytes[lineEnd - 1] == UInt8(ascii: ",") else { return nil }
                albums.append(start..<(lineEnd - 1))
                start = lineEnd + 1
            }
        }
        guard bytes[stateAt..<end].starts(with: Self.stateStart) else { return nil }
        for album in albums {
            guard album.count >= 2, bytes[album.lowerBound] == UInt8(ascii: "{"), bytes[album.upperBound - 1] == UInt8(ascii: "}") else {
                return nil
            }
        }
        var cursor = JSONCursor(UnsafeBufferPointer(rebasing: bytes[(stateAt + Self.stateStart.count)..<end]))
        guard let state = try? cursor.libraryState(), (try? cursor.end()) != nil else { return nil }
        let lines = albums
        let found = Parallel.joined(lines.count, serialBelow: Self.serialBelow) { part in
            part.map { Self.id(in: UnsafeBufferPointer(rebasing: text.bytes[lines[$0]])) }
        }
        var ids: [AlbumID] = []
        ids.reserveCapacity(albums.count)
        for id in found {
            guard let id else { return nil }
            ids.append(id)
        }
        self.text = text
        self.albums = albums
        self.state = state
        self.ids = ids
    }

    /// How many albums the file holds.
    var count: Int { albums.count }

    /// The bytes of the album at `index` (valid while this is kept).
    func bytes(at index: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: text.bytes[albums[index]]) }

    /// The album at `index`, read strictly (with `only`, of the fields beyond the core six only
    /// those it names); nil when the strict reader refuses it (the whole file's reader then
    /// says whether it is readable).
    func album(at index: Int, only named: Set<AlbumField>? = nil) -> Album? {
        var cursor = JSONCursor(bytes(at: index))
        guard let album = try? cursor.album(only: named), (try? cursor.end()) != nil, album.id == ids[index] else { return nil }
        return album
    }

    /// The albums at `range`, as ``album(at:only:)`` reads them, on every core when there are
    /// many; nil when one is refused.
    func albums(in range: Range<Int>, only named: Set<AlbumField>? = nil) -> [Album]? {
        albums(in: range, only: named, mayHolding: []).map { $0.map(\.album) }
    }

    /// The albums at `range` that may hold every one of `terms`' words (``mayHold(_:at:)``;
    /// each album when there are none), each with its 0-based position, as
    /// ``album(at:only:)`` reads them, on every core when there are many; nil when one of
    /// those read is refused. An album passed over is not read, so damage in it goes unseen.
    func albums(
        in range: Range<Int>, only named: Set<AlbumField>? = nil, mayHolding terms: [WordsInTextFields]
    ) -> [(position: Int, album: Album)]? {
        let read = Parallel.joined(range.count, serialBelow: 256) { part in
            part.compactMap { offset -> (Int, Album?)? in
                let index = range.lowerBound + offset
                return terms.isEmpty || self.mayHold(terms, at: index) ? (index, self.album(at: index, only: named)) : nil
            }
        }
        var albums: [(position: Int, album: Album)] = []
        albums.reserveCapacity(read.count)
        for (index, album) in read {
            guard let album else { return nil }
            albums.append((index, album))
        }
        return albums
    }

    /// Whether the album at `index` may hold each of `terms`' words in one of its fields,
    /// judged from its line before it is read: false only when, for some term, each of the
    /// fields is absent (its text empty) or a string of ASCII characters without escapes whose
    /// text, lower-cased as queries fold ASCII, does not hold the words. The strict reader
    /// reads such a field as that text trimmed, so an album passed over is one the query's
    /// matcher refuses; every other album is read and the matcher decides. A field given twice
    /// (which the strict reader refuses) is looked for on the whole line, so such an album is read.
    func mayHold(_ terms: [WordsInTextFields], at index: Int) -> Bool {
        let bytes = bytes(at: index)
        let names = Self.names(of: terms)
        var values = [Range<Int>?](repeating: nil, count: names.count)
        var twice = false
        let read = Self.members(of: bytes) { name, value in
            for slot in names.indices where name.elementsEqual(names[slot].utf8) {
                if values[slot] != nil { twice = true }
                values[slot] = value
            }
            return !twice
        }
        guard read, !twice else { return true }
        return terms.allSatisfy { term in
            term.fields.contains { field in
                // Absent: read once the whole object was walked, its text is empty.
                guard let value = values[names.firstIndex(of: field.name)!] else { return false }
                guard bytes[value.lowerBound] == UInt8(ascii: "\""), value.count >= 2 else { return true }
                let text = UnsafeBufferPointer(rebasing: bytes[(value.lowerBound + 1)..<(value.upperBound - 1)])
                guard text.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\\") }) else { return true }
                return FoldedText.holds(ascii: text, term.words)
            }
        }
    }

    /// The names of the fields `terms` look in, each once.
    private static func names(of terms: [WordsInTextFields]) -> [String] {
        var names: [String] = []
        for term in terms { for field in term.fields where !names.contains(field.name) { names.append(field.name) } }
        return names
    }

    /// The position of the first album whose ``Album/duplicateKey`` is `key`, read from the
    /// albums' `artist`, `title` and `year` alone; `.refused` when an album's are not strings
    /// as this program writes them (the whole file's reader then answers). Many albums are
    /// looked through on every core, each part to its first answer.
    func firstIndex(ofDuplicateKey key: String) -> Lookup {
        let answers = Parallel.joined(albums.count, serialBelow: Self.serialBelow) { part in [firstIndex(ofDuplicateKey: key, in: part)] }
        return answers.first { $0 != .none } ?? .none
    }

    /// Fewer albums than this are looked through on one core.
    private static let serialBelow = 1024

    /// ``firstIndex(ofDuplicateKey:)`` among the albums at `range`.
    private func firstIndex(ofDuplicateKey key: String, in range: Range<Int>) -> Lookup {
        for index in range {
            let bytes = bytes(at: index)
            var artist: Range<Int>?
            var title: Range<Int>?
            var albumYear: Range<Int>?
            let read = Self.members(of: bytes) { name, value in
                if name.elementsEqual("artist".utf8) { artist = value } else if name.elementsEqual("title".utf8) { title = value } else if name.elementsEqual("year".utf8) { albumYear = value }
                return true
            }
            guard read, let artist, let title else { return .refused }
            // Most albums are told apart by the year, the key's last part, before the key is made.
            guard let yearText = albumYear.map({ Self.string(in: bytes, $0) }) ?? "" else { return .refused }
            guard Album.mayHaveDuplicateKey(year: yearText, key) else { continue }
            guard let artistText = Self.string(in: bytes, artist), let titleText = Self.string(in: bytes, title) else { return .refused }
            if Album.duplicateKey(artist: artistText, title: titleText, year: yearText) == key { return .found(index) }
        }
        return .none
    }

    /// What a look through the albums found.
    enum Lookup: Equatable {
        case found(Int), none, refused
    }

    /// The value of the top-level `"id"` member of the album object `bytes`, when it is a
    /// string; nil when it has none or the object is not as this program writes it. The keys
    /// are sorted, so `id` comes before the tracks and the scan stops there.
    private static func id(in bytes: UnsafeBufferPointer<UInt8>) -> AlbumID? {
        var id: AlbumID?
        _ = members(of: bytes) { name, value in
            guard name.elementsEqual("id".utf8) else { return true }
            id = string(in: bytes, value).map(AlbumID.init(rawValue:))
            return false
        }
        return id
    }

    /// The JSON string at `range` of `bytes`, decoded; nil when it is not a string.
    private static func string(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        guard bytes[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        var cursor = JSONCursor(UnsafeBufferPointer(rebasing: bytes[range]))
        return try? cursor.string()
    }

    /// Calls `visit` with each top-level member of the object `bytes` — its key's bytes (as
    /// written, between the quotes) and where its value is — until `visit` returns false.
    /// False when the object is not as this program writes it (no white space).
    private static func members(
        of bytes: UnsafeBufferPointer<UInt8>, _ visit: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Bool
    ) -> Bool {
        var at = 1
        if bytes.count == 2 { return true }
        while at < bytes.count {
            guard bytes[at] == UInt8(ascii: "\""), let keyEnd = JSONCursor.stringEnd(in: bytes, from: at),
                keyEnd < bytes.count, bytes[keyEnd] == UInt8(ascii: ":"), let valueEnd = JSONCursor.valueEnd(in: bytes, from: keyEnd + 1),
                valueEnd < bytes.count
            else { return false }
            if !visit(UnsafeBufferPointer(rebasing: bytes[(at + 1)..<(keyEnd - 1)]), (keyEnd + 1)..<valueEnd) { return true }
            switch bytes[valueEnd] {
            case UInt8(ascii: ","): at = valueEnd + 1
            case UInt8(ascii: "}"): return valueEnd == bytes.count - 1
            default: return false
            }
        }
        return false
    }

    /// The first `byte` in `range` of `bytes`.
    private static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, let found = memchr(bytes.baseAddress! + range.lowerBound, Int32(byte), range.count) else { return nil }
        return bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The first `pattern` in `range` of `bytes`.
    private static func find(_ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var start = range.lowerBound
        while let at = find(pattern[0], in: bytes, start..<range.upperBound) {
            if bytes[at..<range.upperBound].starts(with: pattern) { return at }
            start = at + 1
        }
        return nil
    }
}
