import AlbumKit
import Foundation
import Testing

/// SPEC 1's field rules.
@Suite struct AlbumValidationTests {
    @Test func trimsAndDefaults() throws {
        let album = try AlbumRecord(title: "  Low \n", artist: "\tDavid Bowie ").validated(newID: "gen-1", label: "x")
        #expect(album.title == "Low")
        #expect(album.artist == "David Bowie")
        #expect(album.genre == "")
        #expect(album.year == "")
        #expect(album.id == "gen-1")
        #expect(album.coverUrl == nil)
    }

    @Test func trimsUnicodeWhiteSpaceAndKeepsItInside() throws {
        let album = try AlbumRecord(title: "\u{00A0}Début\u{3000}", artist: "Sigur Rós\u{2003}", genre: " Post\u{00A0}rock ")
            .validated(newID: "gen-1", label: "x")
        #expect(album.title == "Début")
        #expect(album.artist == "Sigur Rós")
        #expect(album.genre == "Post\u{00A0}rock")
    }

    @Test func idRules() {
        let valid = ["a2", "starter-best-of-bowie", "١٢٣", "album:1/custom id", "a\u{00A0}b", "x".padding(toLength: 256, withPad: "x", startingAt: 0)]
        for valid in valid {
            #expect(AlbumID.isValid(valid), "\(valid) is a valid id")
        }
        for invalid in ["", "12345", " lead", "trail ", "\u{00A0}lead", "trail\u{3000}", "é ", "a\tb", "line\nbreak", "nul\u{0}", "del\u{7F}",
                        String(repeating: "x", count: 257)] {
            #expect(!AlbumID.isValid(invalid), "\(invalid) is not a valid id")
        }
    }

    @Test(arguments: [
        ("title", AlbumRecord(title: "  ", artist: "A")),
        ("artist", AlbumRecord(title: "T", artist: "")),
        ("year", AlbumRecord(title: "T", artist: "A", year: "19921")),
        ("year", AlbumRecord(title: "T", artist: "A", year: "MCMXCII")),
        ("title", AlbumRecord(title: "Bell\u{7}", artist: "A")),
        ("artist", AlbumRecord(title: "T", artist: "new\nline")),
        ("artist", AlbumRecord(title: "T", artist: "Delete\u{7F}d")),
        ("genre", AlbumRecord(title: "T", artist: "A", genre: "Él\u{1B}[31m")),
        ("genre", AlbumRecord(title: "T", artist: "A", genre: String(repeating: "x", count: 64 * 1024 + 1))),
        ("coverUrl", AlbumRecord(title: "T", artist: "A", coverUrl: "ftp://nope")),
        ("coverUrl", AlbumRecord(title: "T", artist: "A", coverUrl: "covers/../../etc/passwd")),
        ("coverUrl", AlbumRecord(title: "T", artist: "A", coverUrl: "covers/a..png")),
        ("coverUrl", AlbumRecord(title: "T", artist: "A", coverUrl: "covers/sub/a.png")),
        ("coverUrl", AlbumRecord(title: "T", artist: "A", coverUrl: "covers/é/a.png")),
        ("coverUrl", AlbumRecord(title: "T", artist: "A", coverUrl: "covers/é..png")),
        ("coverUrl", AlbumRecord(title: "T", artist: "A", coverUrl: "ftp://é")),
        ("coverUrl", AlbumRecord(title: "T", artist: "A", coverUrl: "covers/")),
        ("coverUrl", AlbumRecord(title: "T", artist: "A", coverUrl: "https://x/\u{7}")),
        ("id", AlbumRecord(id: "12345", title: "T", artist: "A")),
    ])
    func refusesWithAlbumAndFieldNamed(_ field: String, _ record: AlbumRecord) {
        #expect {
            _ = try record.validated(newID: "gen", label: "input.json #7")
        } throws: { error in
            let text = "\(error)"
            return (error as? AlbumKitError)?.kind == .invalidAlbum && text.contains("input.json #7") && text.contains("'\(field)'")
        }
    }

    @Test func allowsCoverURLsOfEverySchemeCaseAndScript() throws {
        for url in ["HTTP://X/a.png", "https://exämple.org/å.png", "File:///tmp/a.png", "covers/abc.png", "covers/é.png", "covers/a.b.png", "hTtPs://x"] {
            #expect(try AlbumRecord(title: "T", artist: "A", coverUrl: url).validated(newID: "gen", label: "x").coverUrl == url, "\(url)")
        }
    }

    /// A cover's name: 64 hex digits, a dot, letters and digits; lower-cased.
    @Test func coverKeysParseOnlyDigestDotExtension() {
        let digest = String(repeating: "aB", count: 32)
        let key = CoverKey(fileName: "covers/\(digest).PNG")
        #expect(key?.sha256 == digest.lowercased() && key?.fileExtension == "png")
        #expect(CoverKey(fileName: "\(digest).jpé")?.fileExtension == "jpé")
        #expect(CoverKey(fileName: "\(digest).Jp2")?.fileExtension == "jp2")
        for name in [
            "\(digest.dropLast()).png", "\(digest)0.png", "\(digest.dropLast())g.png", "\(digest).", "\(digest)", "\(digest).p-g",
            "\(digest).tar.gz", "\(digest).p@g", "\(digest).p[g", "\(digest).p`g", "\(digest).p_g", "\(digest).\u{301}png", "covers/\u{301}\(digest).png", ".png", "covers/covers/\(digest).png", "\(digest.dropLast())é.png",
            String(repeating: "\u{FF41}", count: 64) + ".png",  // full-width "a": a hex digit to Character, not ASCII
        ] {
            #expect(CoverKey(fileName: name) == nil, "\(name)")
        }
    }

    /// A key holds a lower-case hex digest as its bytes, and any other text as given: either
    /// way its digest reads back as made, keys made from the same name are equal (however they
    /// were made), and keys sort by their digest's text, then extension.
    @Test func coverKeysKeepTheirDigestAndSortAsTheirNames() {
        var generator = SystemRandomNumberGenerator()
        let hexDigits = Array("0123456789abcdef")
        let digests = (0..<400).map { _ in String((0..<64).map { _ in hexDigits[Int(generator.next() % 16)] }) }
            + [String(repeating: "0", count: 64), String(repeating: "f", count: 64), String(repeating: "0", count: 63) + "1"]
        let texts = ["ABC", String(repeating: "A", count: 64), String(repeating: "a", count: 63), String(repeating: "a", count: 63) + "g", "", "é"]
        var keys: [CoverKey] = []
        for text in digests + texts {
            for fileExtension in ["png", "jpg"] {
                let key = CoverKey(sha256: text, fileExtension: fileExtension)
                #expect(key.sha256 == text && key.fileName == "\(text).\(fileExtension)")
                keys.append(key)
            }
        }
        for digest in digests {
            #expect(CoverKey(fileName: "covers/\(digest.uppercased()).PNG") == CoverKey(sha256: digest, fileExtension: "png"))
            #expect(CoverKey(fileName: "\(digest).png").map { Set([$0, CoverKey(sha256: digest, fileExtension: "png")]).count } == 1)
        }
        #expect(CoverKey(sha256: String(repeating: "A", count: 64), fileExtension: "png") != CoverKey(sha256: String(repeating: "a", count: 64), fileExtension: "png"))
        #expect(Set(keys).count == keys.count, "keys that differ only in extension are distinct")
        #expect(Set(keys + keys.map { CoverKey(sha256: $0.sha256, fileExtension: $0.fileExtension) }).count == keys.count)
        let byText = keys.sorted { ($0.sha256, $0.fileExtension) < ($1.sha256, $1.fileExtension) }
        #expect(keys.shuffled().sorted().map(\.fileName) == byText.map(\.fileName))
    }

    @Test func theDuplicateKeyComparisonAgreesWithTheKey() throws {
        let fields: [(String, String, String)] = [
            ("David Bowie", "Low", "1977"), ("  david BOWIE\t", "LOW ", "1977"), ("David Bowie", "Low", ""), ("David Bowie", "Low ", "1978"),
            ("David", "Bowie Low", "1977"), ("Sigur Rós", "Ágætis byrjun", "1999"), ("SIGUR RÓS", "ágætis BYRJUN", "1999"),
            ("Kelvin", "a;b", "1"), ("\u{212A}elvin", "a\u{037E}b", "1"), ("Bjo\u{0308}rk", "Debut", "1993"), ("Björk", "Debut", "1993"),
            ("A\u{00A0}", "B", "2"), ("A", "B", "2"), ("[x]", "@", "1"), ("{X}", "`", "1"),
        ]
        let albums = try fields.enumerated().map { try Album(id: AlbumID("k\($0.offset)"), title: $0.element.1, artist: $0.element.0, year: $0.element.2) }
        let keys = albums.map(\.duplicateKey) + ["david bowie\u{1F}low\u{1F}1977", "david bowie\u{1F}low", "", "kelvin\u{1F}a;b\u{1F}1",
                                                 "kelvin\u{1F}a\u{037E}b\u{1F}1", "david bowie\u{1F}low\u{1F}1977\u{1F}", "a\u{1F}b\u{1F}2",
                                                 "david bowie\u{1F}low\u{1F}197", "david bowie\u{1F}low\u{1F}19770", "david bowie\u{1F}low1977", "1977", "\u{1F}1977"]
        for album in albums {
            for key in keys {
                #expect(album.hasDuplicateKey(key) == (album.duplicateKey == key), "\(album.artist) / \(album.title) / \(album.year) against \(key.debugDescription)")
            }
        }
        #expect(albums[0].hasDuplicateKey(albums[1].duplicateKey), "case and white space around a field do not count")
        #expect(!albums[0].hasDuplicateKey(albums[3].duplicateKey))
    }

    /// The key of ASCII texts (written straight into one string) is what any text's is: each
    /// trimmed of white space and lower-cased, A to Z only, joined by U+001F.
    @Test func theDuplicateKeyOfASCIITextsIsTrimmedAndLowerCased() {
        #expect(Album.duplicateKey(artist: "  david BOWIE\t", title: "LOW \r\n", year: " 1977") == "david bowie\u{1F}low\u{1F}1977")
        #expect(Album.duplicateKey(artist: "[X]", title: "@Z`{", year: "") == "[x]\u{1F}@z`{\u{1F}")
        #expect(Album.duplicateKey(artist: " ", title: "", year: "\t") == "\u{1F}\u{1F}")
        #expect(Album.duplicateKey(artist: "A\u{00A0}", title: "Ágætis", year: "2") == "a\u{1F}ágætis\u{1F}2")
        let long = String(repeating: "Ab ", count: 40)
        #expect(Album.duplicateKey(artist: long, title: "T", year: "1") == String(repeating: "ab ", count: 40).dropLast() + "\u{1F}t\u{1F}1")
    }

    @Test func yearMayBeAnIntegerAndTabsAreAllowed() throws {
        let json = Data(#"[{"title":"A\tB","artist":"C","year":1992,"extra":{"ignored":true}}]"#.utf8)
        let records = try JSONDecoder().decode([AlbumRecord].self, from: json)
        let album = try records[0].validated(newID: "g-1", label: "x")
        #expect(album.year == "1992")
        #expect(album.title == "A\tB")
    }

    @Test func fieldAtTheLimitIsAccepted() throws {
        let limit = String(repeating: "é", count: 32 * 1024)
        #expect(try Album(id: "x-1", title: limit, artist: "A").title.utf8.count == 64 * 1024)
    }

    @Test func referencesParseAsPositionsOrWordsThatResolveToIDsFirst() throws {
        #expect(AlbumReference("2") == .position(2))
        #expect(AlbumReference("a2") == .words(["a2"]))
        let snapshot = LibrarySnapshot(albums: [
            try Album(id: "title-a2", title: "a2", artist: "A"), try Album(id: "a2", title: "Other", artist: "B"),
        ])
        #expect(try AlbumReference("a2").index(in: snapshot) == 1, "an id wins over a query that matches a title")
        #expect(AlbumID.generate().rawValue.contains { !$0.isNumber })
    }
}
