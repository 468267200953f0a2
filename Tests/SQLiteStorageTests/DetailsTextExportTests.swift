import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import SQLiteStorage
import Testing

/// An export of a database copies each album's stored details text into `albums.json` where
/// that text is what the bundle's writer writes (``WriterFormDetails``), and parses and writes
/// anew any other: either way the bundle is byte for byte the one written from the parsed
/// albums, checked member by member with `cmp` on the archives `tar` unpacks.
@Suite struct DetailsTextExportTests {
    /// Track lengths whose text the check knows is `Double`'s own (whole, or up to four places),
    /// and lengths it turns away (an exponent, more places): their albums are parsed.
    private static let plainSeconds: [Double] = [0, 0.5, 3, 4.25, 0.0001, 123.5, 999_999_999.125, 100_000_000]
    private static let turnedAwaySeconds: [Double] = [0.00001, 0.1 + 0.2, 1.0 / 3, 12_345.678901234]

    /// Albums whose details take the shapes the writer writes: every field, each escape,
    /// unicode, ratings and track lengths with fractions; one album for each length.
    private static func albums() -> [Album] {
        let edges = (plainSeconds + turnedAwaySeconds).enumerated().map { index, seconds in
            var details = AlbumDetails()
            details[.rating] = ["0.5", "3", "4.5", "5"][index % 4]
            details[.notes] = "quote \" backslash \\ slash / tab \t line \n return \r é 東京 \u{1F3B8}"
            details[.label] = index % 2 == 0 ? "Warp" : "Blue Note – ブルーノート"
            details.tags = ["idm", "post-bop ✓"]
            details.ids = ["discogs": "\(index)", "musicbrainz": "mb-\(index)"]
            details.fields = ["discogs.folder": "Jazz \"quoted\"", "mood": "calm"]
            details.tracks = [Track(title: "Intro", number: index + 1, disc: 1, seconds: seconds), Track(title: "T \\ é", artist: "Guest")]
            return try! Album(id: AlbumID("edge-\(index)"), title: "Edge \(index)", artist: "A", genre: "g", year: "1999", details: details)
        }
        return CompatFixtures.wholeAlbums() + CompatFixtures.unusualAlbums() + edges
    }

    /// A SQLite library in `folder` holding `albums`.
    private func storage(holding albums: [Album], in folder: TemporaryFolder) async throws -> SQLiteStorage {
        let storage = SQLiteStorage(file: folder.path("library.sqlite"))
        try await storage.create(holding: albums)
        return storage
    }

    /// `storage` exported as a bundle read from the store as an export reads it (the details
    /// texts), and one written from its albums loaded and parsed whole: each unpacked by `tar`
    /// and every member compared with `cmp`, but for the manifest's time of making (the two
    /// exports may fall in different seconds) and its line in the checksums. Returns the
    /// names of the members that differ.
    private func differences(exporting storage: SQLiteStorage, in folder: TemporaryFolder) async throws -> [String] {
        let writer = BundleWriter(compression: .zstd, generator: "test")
        try await writer.write(ExportContents(storage: storage, generator: "test"), to: folder.path("texts.tar.zst"))
        let parsed = ExportContents(snapshot: try await storage.load(), covers: storage.covers, steps: { try await storage.steps($0) }, generator: "test")
        try await writer.write(parsed, to: folder.path("parsed.tar.zst"))
        var members: Set<String> = []
        for name in ["texts", "parsed"] {
            try FileManager.default.createDirectory(at: folder.path(name), withIntermediateDirectories: false)
            let unpacked = try runProgram("/usr/bin/tar", ["--zstd", "-xf", folder.path(name + ".tar.zst").path, "-C", folder.path(name).path])
            #expect(unpacked.status == 0, "\(unpacked.output)")
            members.formUnion(try FileManager.default.subpathsOfDirectory(atPath: folder.path(name).path))
        }
        #expect(members.isSuperset(of: ["manifest.json", "albums.json", "state.json", "checksums.sha256"]), "\(members)")
        let timed = ["manifest.json": #""created""#, "checksums.sha256": "  manifest.json"]
        for (member, line) in timed {
            for name in ["texts", "parsed"] {
                let kept = try String(contentsOf: folder.path(name + "/" + member), encoding: .utf8).split(separator: "\n").filter { !$0.contains(line) }
                try kept.joined(separator: "\n").write(to: folder.path(name + "/" + member), atomically: true, encoding: .utf8)
            }
        }
        return try members.sorted().filter { member in
            try runProgram("/usr/bin/cmp", [folder.path("texts/" + member).path, folder.path("parsed/" + member).path]).status != 0
        }
    }

    /// The ids of the albums of `storage` an export reads with their details as text.
    private func albumsReadAsText(_ storage: SQLiteStorage) async throws -> Set<String> {
        var ids: Set<String> = []
        try await ExportContents(storage: storage).readWithText(inRunsOf: 7) { piece in
            if case .albums(let albums) = piece { ids.formUnion(albums.filter { $0.details != nil }.map(\.album.id.rawValue)) }
        }
        return ids
    }

    @Test func detailsCopiedAsTheirTextMakeTheBundleTheParsedAlbumsMake() async throws {
        let folder = try TemporaryFolder("details-text-export")
        defer { folder.remove() }
        let storage = try await storage(holding: Self.albums(), in: folder)

        #expect(try await differences(exporting: storage, in: folder) == [])
        let plain = Self.plainSeconds.indices.map { "edge-\($0)" }
        let turnedAway = Self.turnedAwaySeconds.indices.map { "edge-\(Self.plainSeconds.count + $0)" }
        #expect(try await albumsReadAsText(storage) == Set(["whole-album-ü"] + plain), "turned away: \(turnedAway)")
    }

    @Test func aStoredTextNotInTheWritersFormIsWrittenAnew() async throws {
        let folder = try TemporaryFolder("details-text-rewritten")
        defer { folder.remove() }
        let albums = (0..<12).map { try! Album(id: AlbumID("row-\($0)"), title: "T\($0)", artist: "A") }
        let storage = try await storage(holding: albums, in: folder)
        // Texts `AlbumDetails(json:)` reads that its writer would write otherwise.
        let texts = [
            #"{"label": "Warp"}"#, #"{"label":"W\/arp"}"#, #"{"rating":4.50}"#, #"{"tags":["a"],"label":"Warp"}"#,
            #"{"label":"Warp","tags":[]}"#, #"{"label":"caf\u00e9"}"#, #"{"ids":{"b":"1","a":"2"}}"#,
            #"{"tracks":[{"title":"x","number":1}]}"#, #"{"format":"LP","label":null}"#, #"{"label":""}"#,
            #"{"notes":"a\u000ab"}"#, #"{"rating":1e0}"#,
        ]
        let update = """
            import json, sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            for index, text in enumerate(json.loads(sys.argv[2])):
                c.execute("UPDATE albumkit_albums SET details = ? WHERE id = ?", (text, "row-%d" % index))
            c.commit()
            """
        let written = try JSONEncoder().encode(texts)
        let changed = try runProgram("/usr/bin/env", ["python3", "-c", update, folder.path("library.sqlite").path, String(decoding: written, as: UTF8.self)])
        #expect(changed.status == 0, "\(changed.output)")

        #expect(try await albumsReadAsText(storage) == [])
        #expect(try await differences(exporting: storage, in: folder) == [])
    }
}
