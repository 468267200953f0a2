import AlbumKit
import Foundation

/// Albums for conformance suites: plain ones in bulk, and ones at the edges of the field rules.
public enum CompatFixtures {
    /// `count` distinct albums with every field set, half of them with a cover.
    public static func albums(count: Int) -> [Album] {
        (0..<count).map { index in
            try! Album(
                id: AlbumID("fixture-\(index)"), title: "Album \(index)", artist: "Artist \(index % 7)",
                genre: ["Pop", "Jazz", ""][index % 3], year: index % 4 == 0 ? "" : String(1950 + index % 70),
                coverUrl: index % 2 == 0 ? CoverReference.folder + String(repeating: "ab", count: 32) + ".png" : nil)
        }
    }

    /// `count` plain albums in order: id `id-<index>` (the index padded to five digits when
    /// `paddedIDs`, so that the ids sort as the albums stand), title `Album <index>`, artist `A`,
    /// `genre`, and the cover references of `covers` in turn (album `index` has
    /// `covers[index % covers.count]`).
    public static func numberedAlbums(count: Int, paddedIDs: Bool = false, genre: String = "", covers: [String?] = [nil]) -> [Album] {
        (0..<count).map { index in
            try! Album(
                id: AlbumID(paddedIDs ? "id-\(String(format: "%05d", index))" : "id-\(index)"), title: "Album \(index)", artist: "A",
                genre: genre, coverUrl: covers[index % covers.count])
        }
    }

    /// Albums with unicode in every script, emoji, tabs, quotes, XML and JSON specials, and
    /// fields at the 64 KiB limit.
    public static func unusualAlbums() -> [Album] {
        let long = String(repeating: "ü", count: 32 * 1024)  // 64 KiB of UTF-8
        let samples: [(String, String)] = [
            ("Björk – Homogenic", "Björk Guðmundsdóttir"),
            ("東京事変 教育", "椎名林檎"),
            ("Песни", "Кино"),
            ("\u{1F3B8} Emoji \u{1F1EF}\u{1F1F5} flags \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "Ünïcödé"),
            ("Tab\tinside & <xml> \"quotes\" 'single' \\backslash", "]]> <!-- --> {\"json\": [1]}"),
            ("العربية", "עברית"),
            (long, "Long Title Artist"),
            ("Long Artist", long),
            ("e\u{301} combining", "NFC é vs NFD e\u{301}"),
        ]
        return samples.enumerated().map { index, sample in
            try! Album(
                id: AlbumID("unusual-\(index)-ü"), title: sample.0, artist: sample.1, genre: index % 2 == 0 ? "Genre ✓" : "",
                year: index == 0 ? "1997" : "", coverUrl: index == 3 ? "https://example.com/cover.jpg?a=1&b=2" : nil)
        }
    }

    /// Two albums: one with every field of SPEC 1 filled at its limits (1 000 tracks, 256
    /// fields on the album and on a track, 64 ids, 64 tags, 64 KiB notes with line breaks,
    /// unicode everywhere), and one with only the core six.
    public static func wholeAlbums() -> [Album] {
        var details = AlbumDetails()
        details[.released] = "1977-01-14"
        details[.label] = "RCA Victor – ビクター"
        details[.catalogNumber] = "PL 12030"
        details[.format] = "LP, Album, Gatefold"
        details[.country] = "UK"
        details[.barcode] = "5 012394 120304"
        details[.rating] = "4.5"
        details[.added] = "2024-01-02T03:04:05Z"
        details[.notes] = String(repeating: "ü", count: 32 * 1024 - 8) + "\nline\r\n…"
        details.tags = (0..<64).map { "tag \($0) ✓" }
        details.ids = Dictionary(uniqueKeysWithValues: (0..<62).map { ("service\($0)", "id-\($0)") } + [("musicbrainz", "0b5a7c8e-1f2d-4c3b-9a8e-7d6c5b4a3f21"), ("discogs", "123")])
        details.fields = Dictionary(uniqueKeysWithValues: (0..<256).map { ("source\($0 % 4).key\($0)", "value \($0) — ü\ttab") })
        details.tracks = (1...1_000).map { number in
            var track = Track(title: "Track \(number) — 東京", number: (number - 1) % 20 + 1, disc: (number - 1) / 20 + 1)
            if number % 3 == 0 { track.artist = "Guest \(number)" }
            if number % 2 == 0 { track.seconds = Double(number) + 0.25 }
            if number == 1 {
                track.ids = ["musicbrainz": "track-mbid"]
                track.fields = Dictionary(uniqueKeysWithValues: (0..<256).map { ("itunes.key\($0)", "\($0)") })
            }
            return track
        }
        return [
            try! Album(id: "whole-album-ü", title: "Low ✓", artist: "David Bowie", genre: "Art rock", year: "1977",
                coverUrl: "https://example.com/low.jpg", details: details),
            try! Album(id: "core-only", title: "Heroes", artist: "David Bowie", genre: "", year: "1977"),
        ]
    }

    /// Two albums whose every text field is at the 64 KiB limit, in random letters that no
    /// compression shrinks much (a database that keeps the fields, or a key made of them, in
    /// an index entry cannot hold them), the second's fields differing from the first's only
    /// in their last letter.
    public static func albumsAtTheLimits() -> [Album] {
        let limit = 64 * 1024
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        func random(_ prefix: String) -> String {
            prefix + String((prefix.utf8.count..<limit - 1).map { _ in letters.randomElement()! })
        }
        let (title, artist, genre, cover) = (random(""), random(""), random(""), random("https://example.com/"))
        return ["a", "b"].map { last in
            try! Album(
                id: AlbumID("limits-\(last)"), title: title + last, artist: artist + last, genre: genre + last, year: "1999",
                coverUrl: cover + last)
        }
    }
}

extension StorageBackend {
    /// Creates the library and saves `albums` as its whole content, in one change (what a
    /// test stands on before it looks at the store).
    public func create(holding albums: [Album]) async throws {
        try await create()
        try await withWriter { writer, _ in try await writer.save(LibrarySnapshot(albums: albums), change: .replaceAll()) }
    }
}
