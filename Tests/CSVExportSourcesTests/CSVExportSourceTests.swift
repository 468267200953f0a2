import AlbumKit
import AlbumKitTesting
import DiscogsSource
import Foundation
import RYMSource
import Testing

/// The Discogs and RateYourMusic sources on files Python's `csv` writes, and on broken ones.
@Suite struct CSVExportSourceTests {
    @Test func discogsRowsFollowSPEC9() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("collection.csv")
        try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [
            ExportFixture.discogs(artist: "Nirvana", title: "Nevermind", released: "1991", id: "367084"),
            ExportFixture.discogs(artist: "Mono (2)", title: "Hymn To The Immortal Wind", released: "2009", id: "1722539"),
            ExportFixture.discogs(artist: "Various", title: "Unknown Year, \"Quoted\"", released: "0", id: "42"),
            ExportFixture.discogs(artist: "Sunn O))) (12)", title: "Dated", released: "1999-05-12", id: "7"),
        ], to: file)
        #expect(DiscogsSource().match(try SourceInput(at: file)) == .specific)
        #expect(RYMSource().match(try SourceInput(at: file)) == .none)
        let albums = try await readAlbums(DiscogsSource(), file)
        #expect(albums.map(\.artist) == ["Nirvana", "Mono", "Various", "Sunn O)))"])
        #expect(albums.map(\.title) == ["Nevermind", "Hymn To The Immortal Wind", "Unknown Year, \"Quoted\"", "Dated"])
        #expect(albums.map(\.year) == ["1991", "2009", "", "1999"])
        #expect(albums.map { $0.id?.rawValue } == ["discogs:367084", "discogs:1722539", "discogs:42", "discogs:7"])
        #expect(albums.allSatisfy { $0.genre.isEmpty && $0.coverUrl == nil })
    }

    @Test func rymRowsFollowSPEC9() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("user_albums_export.csv")
        try ExportFixture.write(header: ExportFixture.rymHeader, rows: [
            ExportFixture.rym(id: "1234", first: "The", last: "Beatles", title: "Abbey Road", date: "1969"),
            ExportFixture.rym(id: "5678", first: "", last: "Björk", title: "Homogenic", date: "09/22/1997"),
            ExportFixture.rym(id: "91011", first: "", last: "", firstLocalized: "Ryuichi", lastLocalized: "Sakamoto", title: "B-2 Unit", date: "1980-09-21"),
            ExportFixture.rym(id: "1213", first: "", last: "Unknown", title: "Undated", date: ""),
        ], to: file)
        #expect(RYMSource().match(try SourceInput(at: file)) == .specific)
        #expect(DiscogsSource().match(try SourceInput(at: file)) == .none)
        let albums = try await readAlbums(RYMSource(), file)
        #expect(albums.map(\.artist) == ["The Beatles", "Björk", "Ryuichi Sakamoto", "Unknown"])
        #expect(albums.map(\.year) == ["1969", "1997", "1980", ""])
        #expect(albums.map { $0.id?.rawValue } == ["rym:1234", "rym:5678", "rym:91011", "rym:1213"])
    }

    @Test func aHeaderWithoutAReadColumnIsAnErrorNamingIt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("rym.csv")
        var header = ExportFixture.rymHeader
        header.removeAll { $0 == "Release_Date" }
        try ExportFixture.write(header: header, rows: [["1", "A", "B", "", "", "T", "8", "o", "", "CD", ""]], to: file)
        let message = try await readFailure(RYMSource(), file)
        #expect(message.contains("line 1") && message.contains("lacks the column 'Release_Date'"), "\(message)")
    }

    @Test(arguments: [
        (["x", "Artist", "Title"], "row 2 (line 3)", "release_id '' is not a number"),
        (ExportFixture.discogs(artist: "A", title: "T", released: "1991", id: "abc"), "row 2 (line 3)", "release_id 'abc' is not a number"),
        (ExportFixture.discogs(artist: "A", title: "T", released: "May 1991", id: "9"), "row 2 (line 3)", "Released 'May 1991' is not a year"),
        (ExportFixture.discogs(artist: "A", title: "T", released: "1991", id: "9") + ["", "text"], "row 2 (line 3)", "15 fields where the header has 13, the extra ones not empty"),
    ])
    func aRowThatCannotBeAnAlbumIsYieldedAsInvalidNamingRowAndLine(bad: [String], place: String, reason: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("discogs.csv")
        var good = ExportFixture.discogs(artist: "A", title: "T", released: "1991", id: "1")
        good[12] = "no line break"
        try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [good, bad, good], to: file)
        var albums = 0
        var invalid: [(label: String, reason: String)] = []
        for try await item in DiscogsSource().items(from: try SourceInput(at: file), context: SourceContext()) {
            switch item {
            case .album: albums += 1
            case .invalid(_, let label, let why): invalid.append((label.description, why))
            default: break
            }
        }
        #expect(albums == 2, "the rows around it are read")
        #expect(invalid.count == 1 && invalid[0].label == "\(file.path) \(place)" && invalid[0].reason == reason, "\(invalid)")
    }

    /// Discogs writes rows with fewer trailing empty fields than its header, and with more: both
    /// read as the header's columns.
    @Test(arguments: [-2, -1, 1, 3])
    func rowsWithFewerOrMoreTrailingEmptyFieldsAreRead(change: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("discogs.csv")
        var row = ExportFixture.discogs(artist: "Au Pairs", title: "You", released: "1979", id: "7530535")
        row[10...] = ["", "", ""]
        row = change < 0 ? Array(row.dropLast(-change)) : row + Array(repeating: "", count: change)
        try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [row], to: file)
        let albums = try await readAlbums(DiscogsSource(), file)
        #expect(albums.map(\.title) == ["You"] && albums.map(\.year) == ["1979"])
    }
}
