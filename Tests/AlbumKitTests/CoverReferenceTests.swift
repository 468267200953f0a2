@testable import AlbumKit
import Foundation
import Testing

/// An album keeps a stored cover's name as its digest's bytes (``CoverReference``), and every
/// reference reads back as the text it was given.
@Suite struct CoverReferenceTests {
    static let hex = "0123456789abcdef" + String(repeating: "fe", count: 24)

    static let stored = ImageKind.allCases.map { "covers/\(hex).\($0.fileExtension)" }
    static let text = [
        "covers/\(hex.uppercased()).png",  // upper-case hex: kept as written
        "covers/\(hex).jpeg",  // not an extension stored covers get
        "covers/\(hex).PNG",
        "covers/\(hex).png.x",
        "covers/\(hex.dropLast()).png",
        "covers/\(hex)a.png",
        "covers/\(hex).",
        "covers/\(hex)",
        "covers/front.jpg",
        "https://example.com/covers/\(hex).png",
        "file:///music/cover.jpg",
        "covers/\(hex.dropLast())é.png",
    ]

    @Test(arguments: stored)
    func aStoredCoversNameIsKeptAsItsDigest(_ reference: String) throws {
        let kept = CoverReference(reference)
        guard case .stored = kept else { Issue.record("\(reference) kept as text"); return }
        #expect(kept.text == reference)
        #expect(kept.storedKey == CoverKey(fileName: reference))
        #expect(kept.storedKey?.bundlePath == reference)
    }

    @Test(arguments: text)
    func anyOtherReferenceIsKeptAsText(_ reference: String) {
        let kept = CoverReference(reference)
        #expect(kept == .text(reference))
        #expect(kept.text == reference)
        #expect(kept.storedKey == CoverKey(fileName: reference))
    }

    /// A record keeps whatever its input gave, valid or not, as it was given.
    @Test func recordsReadBackAnyTextTheyWereGiven() throws {
        for reference in Self.stored + Self.text + ["  covers/\(Self.hex).png", "ftp://x", "", "covers/../../etc/passwd"] {
            var record = AlbumRecord(title: "T", artist: "A", coverUrl: reference)
            #expect(record.coverUrl == reference)
            let json = Data(#"{"title":"T","artist":"A","coverUrl":"\#(reference)"}"#.utf8)
            #expect(try JSONDecoder().decode(AlbumRecord.self, from: json) == record)
            record.coverUrl = nil
            #expect(record.coverUrl == nil && record != AlbumRecord(title: "T", artist: "A", coverUrl: reference))
        }
    }

    @Test func albumsReadBackTheirReferenceAndCompareByIt() throws {
        for reference in Self.stored + Self.text where reference.hasPrefix("covers/") || reference.contains("://") {
            var album = try Album(id: "a", title: "T", artist: "A", coverUrl: reference)
            #expect(album.coverUrl == reference)
            let copy = try Album(id: "a", title: "T", artist: "A", coverUrl: reference)
            #expect(album == copy && album.hashValue == copy.hashValue)
            let decoded = try JSONDecoder().decode(Album.self, from: JSONEncoder().encode(album))
            #expect(decoded == album)
            album.coverUrl = "https://example.com/other.png"
            #expect(album != copy)
            album.coverUrl = reference
            #expect(album == copy)
        }
        let stored = try Album(id: "a", title: "T", artist: "A", coverUrl: Self.stored[0])
        let upper = try Album(id: "a", title: "T", artist: "A", coverUrl: Self.text[0])
        #expect(stored != upper, "different texts, different albums")
    }
}
