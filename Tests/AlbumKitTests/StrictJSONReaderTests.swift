@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// The strict JSON reader of library files and album lists (``JSONCursor``) must never accept
/// what `JSONDecoder` refuses, and must read the same values when both accept; what it refuses
/// goes to `JSONDecoder`, so errors stay the decoder's.
@Suite struct StrictJSONReaderTests {
    static let album = #"{"artist":"A","genre":"G","id":"a-1","title":"T","year":"1999"}"#
    static let state = #"{"current":null,"nextStep":1,"redo":[],"undo":[],"version":2}"#

    static func document(albums: String = "[\(album)]", state: String = state, extra: String = "") -> String {
        #"{"albums":\#(albums),"format":"albumkit-library","state":\#(state),"version":2\#(extra)}"#
    }

    static func albumWith(_ fields: String) -> String { document(albums: "[{\(fields)}]") }

    /// Documents the strict reader takes itself (the fast path), with what they mean.
    static let accepted: [String] = [
        document(),
        document(albums: "[]"),
        " \n\t" + document() + " \r\n",
        albumWith(#""id":"a","title":"T","artist":"A","year":1992"#),
        albumWith(#""id":"a","title":"T","artist":"A","year":null,"genre":null,"coverUrl":null"#),
        albumWith(#""id":"a","title":"Tab\tinside","artist":"\u00e9\ud83c\udfb8\"\\\/","coverUrl":"covers/\#(String(repeating: "ab", count: 32)).png""#),
        albumWith(#""id":"a","title":"  padded  ","artist":"A","unknown":{"x":[1,-2.5e+3,true,false,null,{"y":"z"}]}"#),
        albumWith(#""id":"a","title":"T","artist":"A","nested":\#(String(repeating: "[", count: 200))\#(String(repeating: "]", count: 200))"#),
        albumWith(#""id":"a","title":"T","artist":"A","huge":["\#(String(repeating: "x", count: 1_000_000))"]"#),
        document(state: #"{"covers":{"https://x.test/a.png":{"cover":"\#(String(repeating: "cd", count: 32)).jpg"},"file:///b":{"failed":"not under \"roots\"\n"}},"current":"a-1","nextStep":9,"redo":[{"id":7,"label":"r"}],"undo":[{"id":3,"label":"u","extra":1}],"version":2}"#),
        document(state: "{}"),
        document(extra: #","other":[{"a":"b"}]"#),
    ]

    /// Documents the strict reader refuses; `JSONDecoder` decides (and names the problem).
    static let refused: [String] = [
        "",
        "\u{FEFF}" + document(),
        document() + " x",
        document().replacingOccurrences(of: #""version":2"#, with: #""version":3"#),
        document().replacingOccurrences(of: "albumkit-library", with: "something-else"),
        document(state: #"{"version":1,"current":null,"undo":[],"redo":[]}"#),
        document(state: #"{"current":5}"#).replacingOccurrences(of: #""version":2"#, with: #""version":1"#),
        document(state: "[]").replacingOccurrences(of: #""version":2"#, with: #""version":1"#),
        albumWith(#""id":"a","title":5,"artist":"A""#),
        albumWith(#""id":"a","title":null,"artist":"A""#),
        albumWith(#""id":"a","artist":"A""#),
        albumWith(#""title":"T","artist":"A""#),
        albumWith(#""id":7,"title":"T","artist":"A""#),
        albumWith(#""id":"a","title":"T","artist":"A","year":1992.0"#),
        albumWith(#""id":"a","title":"T","artist":"A","year":true"#),
        albumWith(#""id":"a","title":"T","artist":"A","year":12345"#),
        albumWith(#""id":"a","title":"T","title":"U","artist":"A""#),
        albumWith(#""id":"a","title":"\u0001","artist":"A""#),
        albumWith(#""id":"a","title":"\ud800","artist":"A""#),
        albumWith(#""id":"a","title":"\udc00x","artist":"A""#),
        albumWith(#""id":"a","title":"\x","artist":"A""#),
        albumWith(#""id":"a","title":"T","artist":"A","coverUrl":"ftp://x""#),
        albumWith(#""id":"a","title":"\#(String(repeating: "x", count: 70_000))","artist":"A""#),
        albumWith(#""id":"a","title":"T","artist":"A","deep":\#(String(repeating: "[", count: 600))\#(String(repeating: "]", count: 600))"#),
        albumWith(#""id":"a","title":"T","artist":"A","n":01"#),
        albumWith(#""id":"a","title":"T","artist":"A","n":NaN"#),
        albumWith(#""id":"a","title":"T","artist":"A","n":-"#),
        albumWith(#""id":"a","title":"T","artist":"A","n":1."#),
        albumWith(#""id":"a","title":"T","artist":"A""# + ","),
        document(albums: "[\(album),]"),
        document(albums: "{}"),
        document(state: #"{"current":5}"#),
        document(state: #"{"undo":[{"id":1}]}"#),
        document(state: #"{"undo":[{"id":1.5,"label":"x"}]}"#),
        document(state: #"{"covers":{"u":{"cover":"not-a-key"}}}"#),
        document(state: #"{"covers":{"u":{"failed":"a"},"u":{"failed":"b"}}}"#),
        document(extra: #","albums":[]"#),
    ]

    @Test(arguments: accepted)
    func strictReaderTakesWhatItShould(_ text: String) throws {
        let data = Data(text.utf8)
        let strict = try LoadedLibraryDocument(strictJSON: data)
        let decoded = try JSONDecoder().decode(LoadedLibraryDocument.self, from: data)
        #expect(strict.snapshot == decoded.snapshot)
        #expect(decoded.carriedSteps.isEmpty)
    }

    /// A version 1 file (albumkit 0.1's, its history inside the memento) is read by the strict
    /// reader too: the same albums, memento and carried steps as `JSONDecoder` reads, the
    /// memento before or after the version, with and without steps.
    @Test func versionOneFilesAreReadAsTheDecoderReadsThem() throws {
        let albums = CompatFixtures.albums(count: 3)
        let steps = StateFile(
            current: albums[1].id,
            undo: [HistoryStep(LibraryChange(label: "update 'Album 0'", edits: [.update(before: albums[0], after: albums[2])]))],
            redo: [HistoryStep(LibraryChange(label: "remove 'Gone'", edits: [.remove(try Album(id: "gone", title: "Gone", artist: "A"), at: 2)]))],
            covers: ["https://example.com/a.jpg": .failed("404")])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes  // an escaped key goes to the decoder
        let list = String(decoding: try encoder.encode(albums), as: UTF8.self)
        for state in [String(decoding: try encoder.encode(steps), as: UTF8.self), #"{"version":1,"current":null,"undo":[],"redo":[]}"#] {
            for text in [
                #"{"format":"albumkit-library","version":1,"albums":\#(list),"state":\#(state)}"#,
                #"{"albums":\#(list),"format":"albumkit-library","state":\#(state),"version":1}"#,
            ] {
                let data = Data(text.utf8)
                let strict = try LoadedLibraryDocument(strictJSON: data)
                let decoded = try JSONDecoder().decode(LoadedLibraryDocument.self, from: data)
                #expect(strict.snapshot == decoded.snapshot && strict.carriedSteps == decoded.carriedSteps, "\(text)")
                #expect(strict.snapshot.albums == albums)
            }
        }
        let decoded = try JSONDecoder().decode(LoadedLibraryDocument.self, from: Data(#"{"format":"albumkit-library","version":1,"albums":[],"state":\#(String(decoding: try encoder.encode(steps), as: UTF8.self))}"#.utf8))
        #expect(decoded.carriedSteps.count == 2, "the fixture carries its steps")
        // A version 2 memento in a version 1 file: both refuse it.
        let mixed = Data(#"{"albums":\#(list),"format":"albumkit-library","state":\#(Self.state),"version":1}"#.utf8)
        #expect(throws: (any Error).self) { try LoadedLibraryDocument(strictJSON: mixed) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(LoadedLibraryDocument.self, from: mixed) }
    }

    @Test(arguments: refused)
    func strictReaderRefusesWhatItShould(_ text: String) {
        #expect(throws: (any Error).self) { try LoadedLibraryDocument(strictJSON: Data(text.utf8)) }
    }

    @Test func badUTF8IsRefused() throws {
        for bytes: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] {
            // In a value, and in a key nothing reads.
            for marker in [#""X""#, #""K""#] {
                var data = Data(Self.albumWith(#""id":"a","title":"X","artist":"A","K":1"#).utf8)
                let place = data.range(of: Data(marker.utf8))!
                data.replaceSubrange(place.lowerBound + 1..<place.lowerBound + 2, with: bytes)
                #expect(throws: (any Error).self) { try LoadedLibraryDocument(strictJSON: data) }
                #expect(throws: (any Error).self) { try JSONDecoder().decode(LoadedLibraryDocument.self, from: data) }
            }
        }
    }

    /// A current library file the strict reader refuses fails to load with one error naming
    /// the file, and is left as it was: wrong types, bad UTF-8 (in a value, in a key nothing
    /// reads), nesting past the decoder's limit, a field past the size limit.
    @Test(arguments: [
        Data(albumWith(#""id":"a","title":5,"artist":"A""#).utf8),
        Data(albumWith(#""id":"a","title":"T","artist":["A"]"#).utf8),
        Data(document(state: #"{"current":5,"nextStep":1,"redo":[],"undo":[],"version":2}"#).utf8),
        Data(albumWith(#""id":"a","title":"T","artist":"A","x":\#(String(repeating: "[", count: 600))\#(String(repeating: "]", count: 600))"#).utf8),
        Data(albumWith(#""id":"a","title":"\#(String(repeating: "x", count: 70_000))","artist":"A""#).utf8),
        Data(albumWith(#""id":"a","title":"T","artist":"A","k\#u{1}":1"#).utf8),
        Data(albumWith(#""id":"a","title":"T","artist":"A""#).utf8).replacing(Data("\"T\"".utf8), with: Data([0x22, 0xFF, 0x22])),
        Data(albumWith(#""id":"a","title":"T","artist":"A","k":1"#).utf8).replacing(Data("\"k\"".utf8), with: Data([0x22, 0xC0, 0x80, 0x22])),
    ])
    func refusedLibraryFileIsNamedAndKept(_ bad: Data) async throws {
        let folder = try TemporaryFolder("strict-json")
        defer { folder.remove() }
        let file = folder.path("library.json")
        try bad.write(to: file)
        let backend = FileBackendKind.json.make(in: folder.url)
        await #expect {
            _ = try await backend.load()
        } throws: { error in
            let error = error as? AlbumKitError
            return error?.kind == .unreadableInput && error!.description.contains(file.path)
        }
        #expect(try Data(contentsOf: file) == bad)
    }

    /// Thousands of damaged variants of a real library file: whatever the strict reader
    /// accepts, `JSONDecoder` accepts too, with the same library.
    @Test func neverMoreLenientThanTheDecoder() throws {
        let snapshot = LibrarySnapshot(
            albums: CompatFixtures.albums(count: 4) + [CompatFixtures.unusualAlbums()[4]],
            state: LibraryState(current: "album-2", undo: [HistoryRef(id: 1, label: "import")], nextStep: 2))
        let original = try written(snapshot)
        var generator = SplitMix(seed: 15)
        var strictAccepted = 0
        for _ in 0..<3000 {
            var bytes = [UInt8](original)
            for _ in 0...generator.next(below: 3) where !bytes.isEmpty {
                let position = generator.next(below: bytes.count)
                switch generator.next(below: 4) {
                case 0: bytes[position] = Array(#"{}[]",:0-9.eE\ u"#.utf8)[generator.next(below: 16)]
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(UInt8(truncatingIfNeeded: generator.next(below: 256)), at: position)
                default: bytes = Array(bytes.prefix(position))
                }
            }
            let data = Data(bytes)
            guard let strict = try? LoadedLibraryDocument(strictJSON: data) else { continue }
            strictAccepted += 1
            let decoded = try JSONDecoder().decode(LoadedLibraryDocument.self, from: data)
            #expect(strict.snapshot == decoded.snapshot, "for \(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(strictAccepted > 0, "some damage (inside a string) leaves a valid document")
    }

    @Test func writtenLibraryReadsBackExactly() throws {
        let albums = CompatFixtures.unusualAlbums() + CompatFixtures.albums(count: 20)
        let state = LibraryState(
            current: albums[2].id, undo: [HistoryRef(id: 3, label: "import \"x\"\n\u{1}")], redo: [HistoryRef(id: 4, label: "é")], nextStep: 5,
            covers: ["https://x.test/\u{7F}a\"b.png": .stored(CoverKey(bytes: Data("a".utf8), fileExtension: "png")), "file:///n": .failed("bad\u{0}\u{1F}\\")],
            lookups: [
                "itunes search:\u{7F}a\"b": LookupAnswer(at: Date(timeIntervalSince1970: 1_795_000_000), ids: ["itunes": "1"], missed: "bad\u{0}\u{1F}\\"),
                "coverartarchive release:x": LookupAnswer(at: Date(timeIntervalSince1970: 1), cover: CoverKey(bytes: Data("a".utf8), fileExtension: "png")),
            ])
        let snapshot = LibrarySnapshot(albums: albums, state: state)
        let data = try written(snapshot)
        #expect(try LoadedLibraryDocument(strictJSON: data).snapshot == snapshot)
        #expect(try JSONDecoder().decode(LoadedLibraryDocument.self, from: data).snapshot == snapshot)
    }

    /// An album list read an element at a time (strictly, else by the decoder) gives what
    /// `JSONDecoder` gives for the whole document, or is refused where it is.
    @Test(arguments: [
        (#"[{"title":"T","artist":"A","year":2001,"x":{"y":[1,2]}},{"id":"k","title":"U","artist":"B","genre":null}]"#, true),
        (#"{"meta":{"a":[1]},"albums":[{"title":"T","artist":"A"}]}"#, true),
        (#"{"albums":[{"title":"T","artist":"A"}],"albums":[]}"#, true),
        (#"[{"title":"T","artist":"A","year":"x"}]"#, true),
        (#"[{"title":"T","artist":"A","title":"U"}]"#, true),
        (#"[{"title":"T","artist":5}]"#, false),
        (#"[{"title":"T","artist":"A"}] ]"#, false),
    ])
    func albumListsAgreeWithTheDecoder(_ text: String, _ decodes: Bool) throws {
        let data = Data(text.utf8)
        let whole = (try? JSONDecoder().decode([AlbumRecord].self, from: data)) ?? (try? JSONDecoder().decode(ListUnderKey.self, from: data).albums)
        #expect((whole != nil) == decodes)
        let read = try? JSONFormat().decodeAlbums(from: data)
        #expect(read == whole)
    }

    private struct ListUnderKey: Decodable {
        let albums: [AlbumRecord]
    }

    private func written(_ snapshot: LibrarySnapshot) throws -> Data {
        let folder = try TemporaryFolder("strict-json")
        defer { folder.remove() }
        let file = folder.path("library.json")
        try AtomicFile.write(to: file) { descriptor in
            var output = JSONOutput(descriptor: descriptor, path: file.path)
            try LibraryDocument(snapshot).writeJSON(to: &output)
        }
        return try Data(contentsOf: file)
    }
}

/// A small deterministic random number generator (SplitMix64), so a failure repeats.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
}
