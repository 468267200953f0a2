@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// A library file's text is read into pages of its own (``FileText``) that the strict reader
/// hands back as it passes the albums: what is handed back reads as zeros until restored, and a
/// file the strict reader refuses late still reads whole through the decoder.
@Suite struct FileTextTests {
    /// `count` albums, one a line as the library writer writes them; `last` is the last one.
    static func albums(_ count: Int, last: String? = nil) -> String {
        var lines = (0..<count).map { #"{"artist":"Artist \#($0)","id":"id-\#($0)","title":"Title \#($0)","year":"1999"}"# }
        if let last { lines[count - 1] = last }
        return "[\n" + lines.joined(separator: ",\n") + "]"
    }

    @Test func handedBackPagesReadAsZerosUntilRestored() throws {
        let folder = try TemporaryFolder("filetext")
        defer { folder.remove() }
        let file = folder.path("bytes")
        var generator = SystemRandomNumberGenerator()
        let original = Data((0..<3_000_001).map { _ in UInt8.random(in: 1...255, using: &generator) })
        try original.write(to: file)
        let text = try FileText(contentsOf: file)
        #expect(Data(text.bytes) == original)

        text.handBack(100..<2_000_000)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let firstWhole = (100 + page - 1) / page * page
        let lastWhole = 2_000_000 / page * page
        #expect(Data(UnsafeBufferPointer(rebasing: text.bytes[0..<firstWhole])) == original.prefix(firstWhole), "a page only partly inside is kept")
        #expect(text.bytes[firstWhole..<lastWhole].allSatisfy { $0 == 0 }, "every whole page inside is handed back")
        #expect(Data(UnsafeBufferPointer(rebasing: text.bytes[lastWhole...])) == original.suffix(from: lastWhole))

        try text.restore()
        #expect(Data(text.bytes) == original)
        try text.restore()
        #expect(Data(text.bytes) == original, "restoring twice changes nothing")
    }

    @Test func aMissingOrUnreadableFileIsAnError() throws {
        let folder = try TemporaryFolder("filetext")
        defer { folder.remove() }
        #expect(throws: FileText.ReadFailure.self) { try FileText(contentsOf: folder.path("missing")) }
        #expect(throws: FileText.ReadFailure.self) { try FileText(contentsOf: folder.url) }
        try Data().write(to: folder.path("empty"))
        #expect(try FileText(contentsOf: folder.path("empty")).bytes.isEmpty)
    }

    @Test func aLongAlbumListHandsBackTheTextItPassed() throws {
        let folder = try TemporaryFolder("filetext")
        defer { folder.remove() }
        let file = folder.path("library.json")
        let document = StrictJSONReaderTests.document(albums: Self.albums(60_000))
        try Data(document.utf8).write(to: file)
        let text = try FileText(contentsOf: file)
        var cursor = JSONCursor(text)
        var albums: [Album] = []
        try cursor.members { cursor, key in
            if key.is("albums") { albums = try cursor.elements(splitting: { try $0.album() }) } else { try cursor.skipValue() }
        }
        #expect(albums.count == 60_000)
        #expect(albums.last?.title == "Title 59999")
        // All but what each of the two cores read after its last hand-back, and the pages
        // only partly inside.
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let kept = text.bytes.count - text.bytes.count { $0 == 0 }
        #expect(kept <= 2 * (JSONCursor.handBackBytes + 2 * page) + StrictJSONReaderTests.state.utf8.count + 100, "\(kept) of \(text.bytes.count) bytes kept")
    }

    /// The last album's key holds an escape, which the strict reader refuses once it has handed
    /// back most of the text: the decoder must read the whole text again, as it was.
    @Test func aLibraryRefusedLateIsReadWholeByTheDecoder() async throws {
        let folder = try TemporaryFolder("filetext")
        defer { folder.remove() }
        let last = #"{"artist":"Last","id":"id-last","ti\u0074le":"Escaped key","year":"2001"}"#
        let text = StrictJSONReaderTests.document(albums: Self.albums(60_000, last: last))
        #expect(text.utf8.count > 4 * JSONCursor.handBackBytes)
        let backend = FileBackendKind.json.make(in: folder.url)
        try Data(text.utf8).write(to: folder.path("library.json"))

        let snapshot = try await backend.load()
        #expect(snapshot.albums.count == 60_000)
        #expect(snapshot.albums.first?.title == "Title 0")
        #expect(snapshot.albums.last?.title == "Escaped key")
        #expect(snapshot.albums[30_000].artist == "Artist 30000")
    }
}
