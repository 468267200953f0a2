@testable import AlbumKit
import Testing

/// A query checked on the folded text a row store keeps of each album (``FoldedAlbum``) gives
/// exactly what it gives on the album itself, field by field, for every field of the table.
@Suite struct FoldedQueryTests {
    /// One album with every field filled (accents, capitals, notes of three lines, empty lines
    /// in between), one with only the core six.
    static let albums: [Album] = {
        var details = AlbumDetails()
        for field in AlbumField.scalars { details[field] = "\(field.name) Välue ÉX" }
        details[.released] = "1977-01-14"
        details[.rating] = "4.5"
        details[.added] = "2024-01-02T03:04:05Z"
        details[.notes] = "First LINE\n\nthird Líne, after an empty one"
        details.tags = ["Ambient", "IDM"]
        details.ids = ["discogs": "1234", "musicbrainz": "Ab-Cd"]
        details.fields = ["mood": "Dárk", "discogs.folder": "Jazz"]
        details.tracks = [Track(title: "One"), Track(title: "Two")]
        return [
            try! Album(id: AlbumID("whole"), title: "Café Tacvba", artist: "BJÖRK", genre: "Electrónica", year: "1999", details: details),
            try! Album(id: AlbumID("core"), title: "Low", artist: "David Bowie"),
        ]
    }()

    @Test func everyFieldOnLinesOfItsOwnIsReadBackFromTheFoldedText() {
        let attributes = AlbumField.all.map(AlbumAttribute.init(field:))
        // Every field a search column holds has a place: notes, the only one that may hold
        // line breaks, too.
        #expect(Set(attributes.filter { $0.searchColumn != nil }) == Set(attributes.filter { $0.foldedPlace != nil }))
        #expect(AlbumAttribute(field: .notes).foldedPlace != nil)
        for album in Self.albums {
            let folded = FoldedAlbum(core: album.searchCore, text: album.searchText)
            let listed = ListedAlbum(position: 1, album: album, cover: .none)
            for attribute in attributes {
                guard let place = attribute.foldedPlace else { continue }
                #expect(folded.text(at: place).map(String.init) == FoldedText.fold(listed.text(of: attribute)), "\(attribute) of '\(album.id)'")
            }
        }
    }

    @Test(arguments: [
        "label:välue", "label:value", "^label:value", "notes:\"line\n\nthird\"", "notes:empty", "^notes:first", "tags:idm",
        "tags:\"ambient, idm\"", "catalognumber:ex", "country:value barcode:ex", "format:\"format välue\"", "cafe", "bjork 1999",
        "^bowie", "low ^label:x",
    ])
    func aQueryOnFoldedTextGivesWhatTheAlbumGives(_ text: String) throws {
        let query = try AlbumQuery(parsing: text)
        let test = try #require(query.foldedTest, "'\(text)' is checked on the folded text")
        for album in Self.albums {
            let expected = query.matches(ListedAlbum(position: 1, album: album, cover: .none))
            #expect(test(FoldedAlbum(core: album.searchCore, text: album.searchText)) == expected, "'\(text)' on '\(album.id)'")
        }
    }

    /// Terms the folded text cannot answer: a value among several (an id, a field of one's
    /// own), a number, a date, an empty field, a cover state, a position, an id or cover address.
    @Test(arguments: ["mood:dark", "ids.discogs:1234", "rating:4..", "released:1977", "genre:", "cover:none", "position:1", "id:whole",
                      "coverurl:http", "label:warp rating:4.."])
    func otherTermsAreCheckedOnTheAlbum(_ text: String) throws {
        #expect(try AlbumQuery(parsing: text).foldedTest == nil, "'\(text)'")
    }
}
