import AlbumKitTesting
import Foundation
import Testing

/// Every way of naming one album, through every command that takes one, on ``KnownLibrary``.
@Suite struct ReferenceCommandTests {
    /// (words, the position they name)
    static let references: [([String], Int)] = [
        (["6"], 6),
        (["album-low-1977"], 6),
        (["album-l"], 6),
        (["album-heroes"], 7),
        (["title:low"], 6),
        (["artist:bowie", "year:1976"], 8),
        (["Début"], 9),
        (["東京"], 10),
    ]

    @Test(arguments: references)
    func showNamesTheAlbum(_ words: [String], _ position: Int) throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        let show = try cli.run(["show"] + words + ["--json"])
        #expect(show.status == 0, "\(show.error)")
        let album = (try JSONSerialization.jsonObject(with: Data(show.output.utf8)) as? [String: Any])?["album"] as? [String: Any]
        #expect(album?["position"] as? Int == position)
    }

    @Test func selectMoveUpdateAndRemoveTakeEveryForm() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        #expect(try cli.run("select", "album-d").output == "Current album: 'Début' by Björk.\n")
        let moved = try cli.run("move", "title:low", "--to", "1")
        #expect(moved.output == "Moved 'Low' from 6 to 1.\n", "\(moved.error)")
        let updated = try cli.run("update", "album-her", "--set", "year=1978")
        #expect(updated.output == "Updated '\"Heroes\"': year 1977 → 1978\n", "\(updated.error)")
        let removed = try cli.run("remove", "artist:björk")
        #expect(removed.output == "Removed 'Début' by Björk.\n", "one album by a query needs no confirmation: \(removed.error)")
        #expect(try KnownLibrary.titles(cli) == [
            "Low", "Best of Bowie", "It's My Life", "...Nothing Like the Sun", "Staring at the Sun", "American Pie",
            "\"Heroes\"", "Station to Station", "東京事変",
        ])
        #expect(try cli.run("current", "--json").output.contains("\"album-tokyo\""), "the current album's removal passes to the next")
    }

    @Test(arguments: [
        (["show", "bowie"], "error: 'bowie' matches 4 albums: 1 'Best of Bowie' [starter-b], 6 'Low' [album-l], 7 '\"Heroes\"' [album-h], 8 'Station to Station' [album-s]; name one by its position, id or a narrower query"),
        (["select", "album-"], "error: 'album-' matches 5 albums: 6 'Low' [album-l], 7 '\"Heroes\"' [album-h], 8 'Station to Station' [album-s], 9 'Début' [album-d], 10 '東京事変' [album-t]; name one"),
        (["move", "sun", "--to", "1"], "error: 'sun' matches 2 albums: 3 '...Nothing Like the Sun' [starter-n], 4 'Staring at the Sun' [starter-s]"),
        (["update", "starter", "--set", "genre=x"], "error: 'starter' matches 5 albums"),
    ])
    func anAmbiguousReferenceListsTheCandidates(_ arguments: [String], _ message: String) throws {
        try KnownLibrary.expectFailure(arguments, status: 1, message: message)
    }

    @Test func aPrefixShorterThanSixIsAQueryAndNamesNothingHere() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        let result = try cli.run("show", "albu")
        #expect(result.status == 1)
        #expect(result.error == "error: no album matches 'albu' (as an id, an id prefix or a query)\n")
    }
}
