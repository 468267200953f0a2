@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// SPEC 1: the whole album — every field, its rules, and every reader and writer of the core
/// giving the same album back.
@Suite struct WholeAlbumTests {
    private static let whole = CompatFixtures.wholeAlbums()

    // MARK: - Rules

    @Test(arguments: [("4.5", "4.5"), ("4", "4"), ("0.5", "0.5"), ("5.0", "5"), (" 3 ", "3")])
    func ratingsAreKeptOnTheScale(_ given: String, _ kept: String) throws {
        #expect(try AlbumField.rating.canonical(given, album: "x") == kept)
    }

    @Test(arguments: ["7", "0", "4.3", "-1", "five", "nan", "inf"])
    func ratingsOffTheScaleAreRefused(_ given: String) {
        #expect(throws: AlbumKitError.self) { try AlbumField.rating.canonical(given, album: "x") }
    }

    @Test(arguments: ["1977", "1977-01", "1977-01-14", "2000-02-29"])
    func releaseDatesAsPreciselyAsKnown(_ date: String) throws {
        #expect(try AlbumField.released.canonical(date, album: "x") == date)
    }

    @Test(arguments: [
        "1977-13-40", "1977-02-30", "1900-02-29", "77", "1977-1-1", "1977/01/14", "1977-01-14T00:00:00Z",
        "1977-00", "1977-00-14", "1977-01-00", "1977-", "1977-01-",
    ])
    func impossibleReleaseDatesAreRefused(_ date: String) {
        #expect(throws: AlbumKitError.self) { try AlbumField.released.canonical(date, album: "x") }
    }

    @Test(arguments: [
        ("1977", true), ("1977-01", true), ("1977-12-31", true), ("2000-02-29", true),
        ("1977-00", false), ("1977-00-14", false), ("1977-01-00", false), ("1977-", false), ("1977-13-40", false), ("1977-13", false),
    ])
    func aDateIsAYearAMonthAndADayThatExist(_ date: String, _ real: Bool) {
        // The text and its bytes (how a moment's date part is checked) are read alike.
        #expect(AlbumField.isDate(date) == real)
        #expect(Array(date.utf8).withUnsafeBufferPointer { AlbumField.isDate($0) } == real)
    }

    @Test(arguments: [
        ("2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z"), ("2024-01-02 03:04:05z", "2024-01-02T03:04:05Z"),
        ("2024-01-02T03:04:05.123+02:00", "2024-01-02T01:04:05Z"), ("2023-12-31T23:30:00-01:00", "2024-01-01T00:30:00Z"),
    ])
    func addedIsKeptInUTC(_ given: String, _ kept: String) throws {
        #expect(try AlbumField.added.canonical(given, album: "x") == kept)
    }

    @Test(arguments: [
        ("2024-02-29T23:59:59Z", "2024-02-29T23:59:59Z"), ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"), ("2016-12-31T23:59:60Z", "2016-12-31T23:59:59Z"),
        ("2024-01-02t03:04:05Z", "2024-01-02T03:04:05Z"),
    ])
    func aMomentAlreadyInUTCIsKeptAsItsTimeGivesIt(_ given: String, _ kept: String) throws {
        // Given back as it is when it is a real moment written as kept; a leap second is not.
        #expect(try AlbumField.added.canonical(given, album: "x") == kept)
        #expect(AlbumField.timestampSeconds(given).map(AlbumField.formatTimestamp) == kept)
    }

    @Test(arguments: ["2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-01-00T00:00:00Z", "2024-00-01T00:00:00+01:00", "2024-01-02T24:00:00Z", "2024-01-02T03:60:00Z", "2024-01-02T03:04:61Z"])
    func anImpossibleMomentInUTCIsRefused(_ given: String) {
        #expect(throws: AlbumKitError.self) { try AlbumField.added.canonical(given, album: "x") }
    }

    @Test func checkedDetailsKeepWhatIsKeptAndRepairTheRest() throws {
        var kept = AlbumDetails()
        kept[.label] = "Warp"
        kept[.added] = "2024-01-02T03:04:05Z"
        kept.ids = ["discogs": "1"]
        kept.fields = ["discogs.folder": "Uncategorized", "mood": "calm"]
        #expect(try Album(id: "a", title: "T", artist: "A", details: kept).details == kept)
        var untidy = kept
        untidy[.label] = " Warp "
        untidy[.added] = "2024-01-02 03:04:05Z"
        untidy.ids = ["discogs": "1", "musicbrainz": " "]
        untidy.fields = ["discogs.folder": "Uncategorized", "mood": "calm "]
        #expect(try Album(id: "a", title: "T", artist: "A", details: untidy).details == kept)
    }

    @Test(arguments: ["2024-01-02", "2024-01-02T03:04Z", "2024-01-02T25:00:00Z", "yesterday", "2024-01-02T03:04:05"])
    func addedWithoutATimeAndZoneIsRefused(_ given: String) {
        #expect(throws: AlbumKitError.self) { try AlbumField.added.canonical(given, album: "x") }
    }

    @Test func aReleaseDateGivesTheYear() throws {
        var details = AlbumDetails()
        details[.released] = "1977-01-14"
        let album = try Album(id: "a", title: "Low", artist: "David Bowie", year: "", details: details)
        #expect(album.year == "1977")
    }

    @Test func limitsAndNamesAreRefusedNamingAlbumAndField() {
        func refusal(_ change: (inout AlbumDetails) -> Void) -> String {
            var details = AlbumDetails()
            change(&details)
            do {
                _ = try Album(id: "a", title: "Low", artist: "B", details: details, label: "list.json #3 'Low'")
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(refusal { $0.tracks = Array(repeating: Track(title: "t"), count: 2_000) }.contains("list.json #3 'Low': field 'tracks' has 2000 tracks"))
        #expect(refusal { $0.fields = ["has space": "x"] }.contains("field 'fields' has the name 'has space'"))
        #expect(refusal { $0.ids = ["Discogs": "1"] }.contains("field 'ids' has the name 'Discogs'"))
        #expect(refusal { $0[.label] = String(repeating: "x", count: 70_000) }.contains("field 'label' is 70000 bytes"))
        #expect(refusal { $0[.label] = "a\u{7}b" }.contains("field 'label' holds a control character"))
        #expect(refusal { $0[.notes] = "first\nsecond" } == "accepted")
        #expect(refusal { $0.tags = (0..<65).map(String.init) }.contains("field 'tags' has 65 entries"))
        #expect(refusal { $0.tracks = [Track(title: " ")] }.contains("field 'tracks[1].title' is required"))
        #expect(refusal { $0.tracks = [Track(title: "t", number: 0)] }.contains("field 'tracks[1].number'"))
    }

    @Test func repeatedTagsAreDroppedAndOrderKept() throws {
        var details = AlbumDetails()
        details.tags = ["drone", "ambient", "drone", " idm "]
        #expect(try Album(id: "a", title: "T", artist: "A", details: details).tags == ["drone", "ambient", "idm"])
    }

    /// One-value fields set and taken away again leave details equal, with the same hash, to
    /// details that never had them; a value that checks to nothing is gone too.
    @Test func detailsAreEqualHoweverTheirValuesCameAndWent() throws {
        var cleared = AlbumDetails()
        cleared[.label] = "Warp"
        cleared[.label] = nil
        #expect(cleared == AlbumDetails() && cleared.isEmpty && cleared.hashValue == AlbumDetails().hashValue)
        var rated = AlbumDetails()
        rated[.label] = "Warp"
        rated[.rating] = "4"
        rated[.label] = ""
        var direct = AlbumDetails()
        direct[.rating] = "4"
        #expect(rated == direct && rated.hashValue == direct.hashValue)
        #expect(rated[.label] == nil && rated[.rating] == "4" && rated[.tags] == nil)
        var blank = AlbumDetails()
        blank[.notes] = "   "
        #expect(try Album(id: "a", title: "T", artist: "A", details: blank).details == AlbumDetails())
    }

    // MARK: - Readers and writers

    @Test func jsonRoundTripsEveryFieldThroughEncoderAndDecoder() throws {
        let data = try JSONEncoder().encode(Self.whole)
        #expect(try JSONDecoder().decode([Album].self, from: data) == Self.whole)
    }

    @Test func theStrictReaderReadsWhatTheDecoderReads() throws {
        let data = try JSONEncoder().encode(Self.whole)
        var records = AlbumRecords(json: data)
        var read: [AlbumRecord] = []
        while let record = try records.next() { read.append(record) }
        #expect(read == Self.whole.map(AlbumRecord.init))
        // The strict reader, not the decoder behind it, read them.
        try data.withUnsafeBytes { raw in
            var cursor = JSONCursor(raw.bindMemory(to: UInt8.self))
            var albums: [Album] = []
            try cursor.elements { albums.append(try $0.album()) }
            #expect(albums == Self.whole)
        }
    }

    @Test func theStreamingWriterWritesWhatTheEncoderWrites() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for album in Self.whole {
            var writer = AlbumObjectWriter()
            writer.album(album)
            #expect(String(decoding: writer.take(), as: UTF8.self) == String(decoding: try encoder.encode(album), as: UTF8.self))
        }
    }

    @Test func unknownKeysAreKeptAsFieldsOrDroppedByName() throws {
        let text = #"""
            [{"title": "Kind of Blue", "artist": "Miles Davis", "label": "Columbia", "rating": 5,
              "tracks": [{"title": "So What", "number": 1, "seconds": 562.5, "plays": 12}],
              "playCount": 31, "favourite": true, "discogs.folder": "Jazz", "rank": {"x": 1}, "has space": "y", "gone": null}]
            """#
        for strict in [true, false] {
            let records: [AlbumRecord]
            if strict {
                var list = AlbumRecords(json: Data(text.utf8))
                records = [try list.next()!]
            } else {
                records = try JSONDecoder().decode([AlbumRecord].self, from: Data(text.utf8))
            }
            let record = records[0]
            #expect(record[.label] == "Columbia")
            #expect(record.rating == 5)
            #expect(record.tracks == [Track(title: "So What", number: 1, seconds: 562.5, fields: ["plays": "12"])])
            #expect(record.fields == ["playCount": "31", "favourite": "true", "discogs.folder": "Jazz"])
            #expect(record.droppedKeys.sorted() == ["'has space' (not a field name)", "'rank' (not a text, number or boolean)"], "strict: \(strict)")
        }
    }

    @Test func spillRecordsKeepEveryField() throws {
        for album in Self.whole {
            var encoder = SpillEncoder()
            album.spill(into: &encoder)
            var record = SpillEncoder()
            record.record(AlbumRecord(album))
            let unspilled = try encoder.bytes.withUnsafeBytes { raw throws in
                var decoder = SpillDecoder(raw)
                return try Album(unspilling: &decoder)
            }
            #expect(unspilled == album)
            let read = try record.bytes.withUnsafeBytes { raw throws in
                var decoder = SpillDecoder(raw)
                return try decoder.record()
            }
            #expect(read == AlbumRecord(album))
        }
    }

    @Test(arguments: [false, true])
    func propertyListsKeepEveryField(binary: Bool) throws {
        let format = PropertyListFormat(binary: binary)
        #expect(try format.decode([Album].self, from: format.encode(Self.whole)) == Self.whole)
    }

    @Test func detailsInTheirOwnColumnReadBack() throws {
        let album = Self.whole[0]
        let json = try #require(album.detailsJSON)
        #expect(try Album(id: album.id, title: album.title, artist: album.artist, genre: album.genre, year: album.year,
            coverUrl: album.coverUrl, details: AlbumDetails(json: json)) == album)
        #expect(Self.whole[1].detailsJSON == nil)
    }
}
