import AlbumKitTesting
import Foundation
import Testing

/// A library whose every figure is known, made through the binary: the five starter albums
/// (covers stored) and five more with every kind of value — a cover not fetched yet
/// (missing), one whose fetch failed, none, accents, CJK, no genre, no year.
///
/// | # | title | artist | genre | year | cover |
/// |---|---|---|---|---|---|
/// | 1 | Best of Bowie | David Bowie | Rock | 2002 | stored |
/// | 2 | It's My Life | No Doubt | Pop | 2003 | stored |
/// | 3 | ...Nothing Like the Sun | Sting | Pop | 1987 | stored |
/// | 4 | Staring at the Sun | U2 | Rock | 1997 | stored |
/// | 5 | American Pie | Madonna | Pop | 2000 | stored |
/// | 6 | Low | David Bowie | Art rock | 1977 | missing |
/// | 7 | "Heroes" | David Bowie | Art rock | 1977 | none |
/// | 8 | Station to Station | David Bowie | | 1976 | failed |
/// | 9 | Début | Björk | Pop | 1993 | none |
/// | 10 | 東京事変 | 椎名林檎 | J-Pop | | none |
enum KnownLibrary {
    static func make() throws -> CLIRunner {
        let cli = try CLIRunner()
        try expectSuccess(cli.run("init", "--starter"))
        let list = cli.folder.appendingPathComponent("more.json")
        try Data(#"""
            [{"id": "album-low-1977", "title": "Low", "artist": "David Bowie", "genre": "Art rock", "year": 1977,
              "coverUrl": "https://covers.invalid/low.png"},
             {"id": "album-heroes-1977", "title": "\"Heroes\"", "artist": "David Bowie", "genre": "Art rock", "year": "1977"},
             {"id": "album-station-1976", "title": "Station to Station", "artist": "David Bowie", "year": "1976",
              "coverUrl": "file:///nonexistent/station.png"},
             {"id": "album-debut-1993", "title": "Début", "artist": "Björk", "genre": "Pop", "year": "1993"},
             {"id": "album-tokyo", "title": "東京事変", "artist": "椎名林檎", "genre": "J-Pop"}]
            """#.utf8).write(to: list)
        try expectSuccess(cli.run("import", list.path))
        // Only album 8: its file:// cover lies outside covers.fileRoots, so the fetch fails.
        _ = try cli.run("covers", "fetch", "8")
        return cli
    }

    /// The library's positions in the order `list ARGUMENTS` prints them.
    static func positions(_ cli: CLIRunner, _ arguments: [String]) throws -> [Int] {
        let result = try cli.run(["list", "--format", "$position"] + arguments)
        guard result.status == 0 else { throw Failure("list \(arguments) failed: \(result.error)") }
        return result.output.split(separator: "\n").compactMap { Int($0) }
    }

    /// Runs `albumkit ARGUMENTS` on a fresh ``make()`` library and expects it to fail with
    /// `status` and one error line starting with `message`, leaving the library file as it was.
    static func expectFailure(_ arguments: [String], status: Int32, message: String) throws {
        let cli = try make()
        defer { cli.remove() }
        let file = cli.libraryFolder.appendingPathComponent("library.json")
        let before = try Data(contentsOf: file)
        let result = try cli.run(arguments)
        #expect(result.status == status, "\(result.error)")
        #expect(result.error.hasPrefix(message), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(try Data(contentsOf: file) == before)
    }

    /// The titles in library order.
    static func titles(_ cli: CLIRunner) throws -> [String] {
        try cli.run("list", "--format", "$title").output.split(separator: "\n").map(String.init)
    }

    private static func expectSuccess(_ result: CLIRunner.Result) throws {
        guard result.status == 0 else { throw Failure(result.error) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
