@testable import AlbumKit
import Foundation
import Testing

/// A long array read on two cores (``JSONCursor/elements(splitting:)``) gives what reading it
/// in order gives — the same elements, the same first refusal, the cursor at the same place —
/// wherever the second core's starting line falls: between elements, inside one, or after a
/// damaged one.
@Suite struct SplitJSONReadTests {
    /// One album a line, as the library writer writes them (`separator` between them); `extra`
    /// goes inside each album.
    static func list(_ count: Int, separator: String = ",\n", extra: (Int) -> String = { _ in "" }) -> String {
        "[\n" + (0..<count).map { #"{"artist":"Artist \#($0)","id":"id-\#($0)","title":"Title \#($0)","year":"1999"\#(extra($0))}"# }.joined(separator: separator) + "]"
    }

    /// What a read of an array gave: its elements and where the cursor stopped, or the refusal.
    enum Read: Equatable {
        case took([AlbumRecord], at: Int)
        case refused(String)
    }

    /// Reads `text`'s array followed by `tail`, split and in order.
    private func bothReads(_ text: String, tail: String = #" "after""#) -> (split: Read, ordered: Read) {
        let data = Data((text + tail).utf8)
        return data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            func reading(_ body: (inout JSONCursor) throws -> [AlbumRecord]) -> Read {
                var cursor = JSONCursor(bytes)
                do {
                    let records = try body(&cursor)
                    return .took(records, at: cursor.index)
                } catch {
                    return .refused(String(describing: error))
                }
            }
            let split = reading { try $0.elements(splitting: { try $0.albumRecord() }) }
            let ordered = reading { cursor in
                var records: [AlbumRecord] = []
                try cursor.elements { records.append(try $0.albumRecord()) }
                return records
            }
            return (split, ordered)
        }
    }

    /// Both reads agree; `count` albums were read (nil: the text is refused).
    private func expectSame(_ text: String, count: Int?, _ comment: Comment) {
        let (split, ordered) = bothReads(text)
        #expect(split == ordered, comment)
        switch split {
        case .took(let records, _): #expect(records.count == count, comment)
        case .refused(let why): #expect(count == nil, "refused: \(why); \(comment)")
        }
    }

    @Test func aLongListReadsAsInOrder() {
        let text = Self.list(30_000)
        #expect(text.utf8.count > JSONCursor.splitBytes)
        expectSame(text, count: 30_000, "one album a line")
        expectSame(Self.list(5), count: 5, "a short list, on one core")
        expectSame("[]", count: 0, "an empty list")
    }

    /// Every album holds a nested array of objects written a line each, and the albums' own
    /// lines start with a space: the only lines that look like the start of an album are inside
    /// albums.
    @Test func aStartInsideAnElementIsNotTaken() {
        let text = Self.list(12_000, separator: ",\n ") { #","nested":[{"n":\#($0)},\#n{"n":2},\#n{"n":3}]"# }
        #expect(text.utf8.count > JSONCursor.splitBytes)
        expectSame(text, count: 12_000, "nested lines")
    }

    /// The first core makes room for both halves, judged from what it has read: a run of small
    /// albums at the start may mislead it, but never into room larger than five times the
    /// list's text; albums alike get about the room they fill.
    @Test func roomForBothHalvesIsBoundedByTheText() throws {
        let long = String(repeating: "x", count: 400)
        let smallest = #"{"artist":"A","title":"T"}"#
        let text = "[\n" + (0..<20_000).map { $0 < 100 ? smallest : #"{"artist":"A","genre":"\#(long)","title":"T \#($0)"}"# }.joined(separator: ",\n") + "]"
        let records = try Data(text.utf8).withUnsafeBytes { raw in
            var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
            return try cursor.elements(splitting: { try $0.albumRecord() })
        }
        #expect(records.count == 20_000)
        #expect(records.capacity * MemoryLayout<AlbumRecord>.stride <= 5 * text.utf8.count, "room for \(records.capacity)")
        let even = try Data(Self.list(30_000).utf8).withUnsafeBytes { raw in
            var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
            return try cursor.elements(splitting: { try $0.albumRecord() })
        }
        #expect(even.capacity <= even.count * 5 / 4, "albums alike: room for \(even.capacity) of \(even.count)")
    }

    @Test(arguments: [100, 15_000, 29_999])
    func aDamagedAlbumIsTheFirstRefusal(at damaged: Int) {
        let text = Self.list(30_000) { $0 == damaged ? #","title":"twice""# : "" }
        expectSame(text, count: nil, "album \(damaged) has two titles")
        let unclosed = String(Self.list(30_000).dropLast())
        expectSame(unclosed, count: nil, "the list is never closed")
    }
}
