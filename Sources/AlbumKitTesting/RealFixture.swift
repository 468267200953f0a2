import Foundation

/// A file another tool wrote and published, kept under `Tests/Fixtures/real/<source>/` (see
/// `SOURCES.md` there), with the albums it must import as, written out by hand beside it in
/// `<name>.expected.json`.
public struct RealFixture: Sendable, CustomStringConvertible {
    /// One album as the expected file lists it: the core fields; `id` nil where the source
    /// gives none and the import makes one.
    public struct Album: Decodable, Sendable, Equatable {
        public let id: String?
        public let title: String
        public let artist: String
        public let genre: String
        public let year: String
        public let coverUrl: String?
    }

    /// What importing the file must give.
    public struct Expected: Decodable, Sendable {
        /// The albums, in the order the import adds them.
        public let albums: [Album]
        /// The records that cannot be albums, skipped and named.
        public let skipped: Int
    }

    /// The file or folder to import.
    public let url: URL

    /// The fixture's name (its file or folder).
    public var description: String { url.lastPathComponent }

    /// The expected albums beside it.
    public func expected() throws -> Expected {
        let file = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).expected.json")
        return try JSONDecoder().decode(Expected.self, from: Data(contentsOf: file))
    }

    /// Every fixture of `source` (`discogs`, `itunes`…): each entry of its folder that has an
    /// expected file, by name. `testFile` is the calling test's `#filePath`, in `Tests/<Target>/`.
    public static func all(_ source: String, testFile: String = #filePath) -> [RealFixture] {
        let folder = URL(fileURLWithPath: testFile).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/real/\(source)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { names.contains("\($0).expected.json") }.sorted().map { RealFixture(url: folder.appendingPathComponent($0)) }
    }

    /// Imports the fixture through `albumkit` into a new library in `cli`'s sandbox and returns
    /// every way the result differs from the expected file: the exit status, the count of records
    /// skipped as not albums, the number of albums and each one's fields; empty when it imports as
    /// written.
    public func importProblems(in cli: CLIRunner) throws -> [String] {
        let expected = try expected()
        let initialized = try cli.run("init")
        guard initialized.status == 0 else { return ["init failed: \(initialized.error)"] }
        let result = try cli.run("import", url.path)
        guard result.status == 0 else { return ["import failed (status \(result.status)): \(result.error)"] }
        var problems: [String] = []
        let skipLine = ", \(expected.skipped) not albums skipped"
        if expected.skipped == 0 ? result.output.contains("not albums skipped") : !result.output.contains(skipLine) {
            problems.append("the import should skip \(expected.skipped) records: \(result.output)\(result.error)")
        }
        let listed = try cli.listedAlbums()
        if listed.count != expected.albums.count {
            problems.append("\(listed.count) albums where \(expected.albums.count) were expected: \(listed.map { $0["title"] as? String ?? "" })")
        }
        for (index, (album, wanted)) in zip(listed, expected.albums).enumerated() {
            problems += Self.differences(album, wanted).map { "album \(index + 1) '\(wanted.title)': \($0)" }
        }
        return problems
    }

    /// Where `listed` (an album of `albumkit list --json`) differs from `expected`, one line
    /// each; an expected id of nil asks only that the listed album has one.
    public static func differences(_ listed: [String: Any], _ expected: Album) -> [String] {
        var differences: [String] = []
        func check(_ key: String, _ want: String?) {
            let have = listed[key] as? String
            if have != want { differences.append("\(key): \(have.map { "'\($0)'" } ?? "none") where '\(want ?? "none")' was expected") }
        }
        if let id = expected.id { check("id", id) } else if (listed["id"] as? String ?? "").isEmpty { differences.append("id: none") }
        check("title", expected.title)
        check("artist", expected.artist)
        check("genre", expected.genre)
        check("year", expected.year)
        check("coverUrl", expected.coverUrl)
        return differences
    }
}
