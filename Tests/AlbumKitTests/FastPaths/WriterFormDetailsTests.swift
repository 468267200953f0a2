@testable import AlbumKit
import Testing

/// ``WriterFormDetails`` takes a details text only when it is exactly what the writer writes
/// for the details it holds, and an album object with such a text copied in is the object the
/// writer writes for the album with those details parsed.
@Suite struct WriterFormDetailsTests {
    /// Texts the writer writes (checked below), one or more of each shape it has.
    static let inForm = [
        #"{"label":"Warp"}"#,
        #"{"rating":4.5}"#,
        #"{"rating":3}"#,
        #"{"notes":"q\" b\\ s/ \b\f\n\r\t \u0001\u001f é 東京"}"#,
        #"{"added":"2024-01-02T03:04:05Z","barcode":"5 012394","catalogNumber":"PL 1","country":"UK","fields":{"a.b":"","mood":"calm"},"format":"LP","ids":{"discogs":"1","musicbrainz":"m"},"label":"RCA","notes":"n","rating":0.5,"released":"1977-01-14","tags":["","x ✓"],"tracks":[{"artist":"G","disc":1,"fields":{"k":"v"},"ids":{"mb":"t"},"number":12,"seconds":0.0001,"title":""},{"seconds":999999999.125,"title":"T"}]}"#,
    ]

    /// Texts `AlbumDetails(json:)` reads whose details the writer writes otherwise, or that it
    /// does not read at all.
    static let notInForm = [
        #"{"label": "Warp"}"#, #" {"label":"Warp"}"#, #"{"label":"Warp"} "#, #"{"label":"W\/arp"}"#, #"{"label":"caf\u00e9"}"#,
        #"{"label":"\u0041"}"#, #"{"label":"\u001F"}"#, #"{"label":"\u000a"}"#, #"{"tags":["a"],"label":"Warp"}"#,
        #"{"label":"Warp","label":"Warp"}"#, #"{"title":"T"}"#, #"{"mood":"calm"}"#, #"{"label":""}"#, #"{"label":null}"#,
        #"{"tags":[]}"#, #"{"ids":{}}"#, #"{"rating":4.50}"#, #"{"rating":1e0}"#, #"{"rating":-1}"#, #"{"rating":05}"#,
        #"{"tracks":[{"seconds":0.00001,"title":"T"}]}"#, #"{"tracks":[{"seconds":0.30000000000000004,"title":"T"}]}"#,
        #"{"ids":{"b":"1","a":"2"}}"#, #"{"ids":{"a":"1","a":"2"}}"#, #"{"fields":{"é":"1"}}"#, #"{"fields":{"a\"b":"1"}}"#,
        #"{"tracks":[{"title":"T","number":1}]}"#, #"{"tracks":[{"number":1}]}"#, #"{"tracks":[{"artist":"","title":"T"}]}"#,
        #"{"tracks":[]}"#, #"{"fields":{"a":1}}"#, "{}", "", "{", #"{"label":"Warp"}x"#,
    ]

    @Test(arguments: inForm) func aTextInTheWritersFormIsCopiedIntoTheAlbumAsWritten(_ text: String) throws {
        var album = try Album(id: "a", title: "T", artist: "A", genre: "g", year: "1999", coverUrl: "https://example.com/c.jpg")
        album.details = try AlbumDetails(json: text)
        #expect(album.detailsJSON == text, "the writer writes these details otherwise")
        let inForm = try #require(WriterFormDetails(text))
        var core = album
        core.details = AlbumDetails()
        #expect(JSONOutput.text { try $0.album(core, details: inForm) } == JSONOutput.text { try $0.album(album) })
    }

    @Test(arguments: notInForm) func anyOtherTextIsTurnedAway(_ text: String) {
        #expect(WriterFormDetails(text) == nil)
    }
}
