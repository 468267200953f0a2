import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// Album lists are decoded element by element and libraries written piece by piece; both
/// must mean exactly what the whole-document forms mean.
@Suite struct StreamedJSONTests {
    @Test(arguments: [
        #"[]"#,
        "\u{FEFF} [ {\"title\":\"A ] } [\",\"artist\":\"B \\\" {\"} , {\"title\":\"C\",\"artist\":\"D\",\"x\":[1,{\"y\":[]}]} ] \n",
        #"{"other": [1, 2, {"albums": 3}], "albums": [{"title": "A ] } [", "artist": "B \" {"}, {"title": "C", "artist": "D", "x": [1, {"y": []}]}], "z": "}"}"#,
    ])
    func listsSplitIntoTheirElements(_ text: String) throws {
        let albums = try JSONFormat().decodeAlbums(from: Data(text.utf8))
        if text == "[]" {
            #expect(albums.isEmpty)
        } else {
            #expect(albums.map(\.title) == ["A ] } [", "C"])
            #expect(albums.map(\.artist) == ["B \" {", "D"])
        }
    }

    static let brokenLists: [(String, String)] = [
        (#"[{"title": "A", "artist": "B"}"#, "ends inside"),
        (#"[{"title": "A", "artist": "B"}] x"#, "after the list"),
        ("", "empty"),
        (#"{"albums": 5}"#, "not a list"),
        (#"{"records": []}"#, "no 'albums'"),
        (#""albums""#, "expected a list"),
        (#"[{"title": "A", "artist": "B"}, {"title": 7, "artist": "B"}]"#, "at [1].title"),
        (#"[{"title": "A, "artist": "B"}]"#, "ends inside a string"),
        (#"[{"title": "A", "artist": "B"}, {"title": "A", "artist": "B"]"#, "ends inside a list"),
    ]

    @Test(arguments: brokenLists)
    func brokenListsAreNamed(_ text: String, _ expected: String) throws {
        let error = try #require(throws: AlbumKitError.self) { try refusal(of: text) }
        #expect(error.kind == .unreadableInput)
        #expect(error.description.hasPrefix("broken.json: not a json album list ("), "\(error)")
        #expect(error.description.contains(expected), "\(error)")
    }

    @Test func deepNestingIsRefusedWithoutCrashing() throws {
        let deep = "[" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "]"
        let error = try #require(throws: AlbumKitError.self) { try refusal(of: deep) }
        #expect(error.kind == .unreadableInput)
        #expect(error.description.hasPrefix("broken.json: not a json album list (at [0]"), "the element is named: \(error)")
    }

    /// The text read a piece at a time (a byte, seven bytes, a page) splits into the albums the
    /// whole text does, and a broken one is refused with the same words.
    @Test(arguments: [1, 7, 4096])
    func listsReadInPiecesSplitAsWhole(_ piece: Int) throws {
        let texts = Self.brokenLists.map(\.0) + [
            #"[]"#, "\u{FEFF}[{\"title\":\"A\",\"artist\":\"B\"}]", #"{"albums": [{"title": "A", "artist": "B"}], "z": [1, {"albums": []}]}"#,
            "\u{FEFF} [ {\"title\":\"A ] } [\",\"artist\":\"B \\\" {\"} , {\"title\":\"C\",\"artist\":\"D\",\"x\":[1,{\"y\":[]}]} ] \n",
            #"{"other": [1, 2, {"albums": 3}], "albums": [{"title": "A ] } [", "artist": "B \" {"}, {"title": "C", "artist": "D", "x": [1, {"y": []}]}], "z": "}"}"#,
            "[" + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "]",
            "\u{FEFF}", #"{"al\"bums": [], "albums": [{"title": "A\\", "artist": "B"}]}"#, #"[{"title": "A", "artist": "B"},]"#, #"[1 , "x"]"#,
        ]
        for text in texts {
            let whole = Result { () throws(AlbumKitError) in try Self.titles(reading: Data(text.utf8), piece: Int.max) }
            let pieces = Result { () throws(AlbumKitError) in try Self.titles(reading: Data(text.utf8), piece: piece) }
            switch (whole, pieces) {
            case (.success(let expected), .success(let read)): #expect(read == expected, "\(text)")
            case (.failure(let expected), .failure(let error)): #expect(error.description == expected.description, "\(text)")
            default: Issue.record("\(text): whole \(whole), in pieces of \(piece) \(pieces)")
            }
        }
    }

    /// An album list's text is read as its albums are asked for, not whole first (a bundle of
    /// 100 000 collectors' albums has 196 MB of it), and what the reader throws comes out as it
    /// was thrown, not as a broken list.
    @Test func aLongListIsReadAsItsAlbumsAreAskedFor() throws {
        let albums = (0..<20_000).map { ["title": "Album \($0)", "artist": "Artist", "tracks": [["title": "One"]]] as [String: Any] }
        let data = try JSONSerialization.data(withJSONObject: albums)
        var offset = 0
        var list = try AlbumListSource(format: JSONFormat()).albumList(reading: { buffer in
            let count = min(buffer.count, 4096, data.count - offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
            offset += count
            if offset > data.count / 2 { throw AlbumKitError(.fileSystem, "long.json: cannot read: gone") }
            return count
        }, input: "long.json", label: "long.json")
        _ = try list.next()
        #expect(offset <= 8192, "read \(offset) of \(data.count) bytes for the first album")
        let error = try #require(throws: AlbumKitError.self) { while try list.next() != nil {} }
        #expect(error.description == "long.json: cannot read: gone")
        #expect(list.handedOver > 1_000)
    }

    /// The titles of the albums of the list in `data`, read `piece` bytes at a time.
    private static func titles(reading data: Data, piece: Int) throws(AlbumKitError) -> [String] {
        var offset = 0
        var list = try AlbumListSource(format: JSONFormat()).albumList(reading: { buffer in
            let count = min(buffer.count, piece, data.count - offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
            offset += count
            return count
        }, input: "broken.json", label: "broken.json")
        var titles: [String] = []
        while let item = try list.next() {
            if case .album(let record, _) = item { titles.append(record.title) }
        }
        return titles
    }

    /// Reads `text` as the album list `broken.json`, as `import` does.
    private func refusal(of text: String) throws(AlbumKitError) {
        _ = try AlbumListSource(format: JSONFormat()).albumItems(in: Data(text.utf8), input: "broken.json", label: "broken.json")
    }

    @Test func savedLibraryIsWhatJSONEncoderWouldWrite() async throws {
        let folder = try TemporaryFolder("streamed")
        defer { folder.remove() }
        let file = folder.path("library.json")
        let storage = FileStorage(file: file, format: JSONFormat(), coversFolder: folder.path("covers"))
        try await storage.create()
        let albums = CompatFixtures.unusualAlbums() + CompatFixtures.albums(count: 30)
        let state = LibraryState(
            current: albums[3].id, undo: [HistoryRef(id: 4, label: "import \"many\""), HistoryRef(id: 7, label: "move")],
            redo: [HistoryRef(id: 9, label: "update")], nextStep: 12,
            covers: ["https://x.test/a.png": .stored(CoverKey(bytes: Data("a".utf8), fileExtension: "png")), "file:///nope": .failed("not under \"roots\"")],
            lookups: [
                "coverartarchive search:release:\"A\" AND artist:\"B\"": LookupAnswer(at: Date(timeIntervalSince1970: 1_795_000_000), ids: ["musicbrainz": "x"], missed: "no front image"),
                "itunes search:B A": LookupAnswer(at: Date(timeIntervalSince1970: 1_795_000_001), cover: CoverKey(bytes: Data("a".utf8), fileExtension: "png")),
                "discogs release:1": LookupAnswer(at: Date(timeIntervalSince1970: 1_795_000_002), failed: "timed out"),
            ])
        let snapshot = LibrarySnapshot(albums: albums, state: state)
        let steps: [Int64: HistoryStep] = [
            4: HistoryStep(compacting: LibraryChange(label: "import", edits: albums.prefix(5).enumerated().map { .insert($0.element, at: $0.offset) })),
            7: HistoryStep(LibraryChange(label: "move", edits: [.move(albums[0].id, from: 0, to: 2)])),
            9: HistoryStep(LibraryChange(label: "update", edits: [.update(before: albums[1], after: albums[2])])),
        ]
        try await storage.withWriter { writer, _ in try await writer.save(snapshot, change: .replaceAll(steps: steps)) }

        #expect(try await storage.load() == snapshot)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let expected: [String: Any] = [
            "albums": try JSONSerialization.jsonObject(with: encoder.encode(albums)),
            "format": "albumkit-library", "version": 2,
            "state": try JSONSerialization.jsonObject(with: encoder.encode(state)),
        ]
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        #expect((written as? NSDictionary) == (expected as NSDictionary))
        // Each step file: what JSONEncoder would write for the step.
        for (id, step) in steps {
            let stepFile = folder.path("library.history/\(id).json")
            let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: stepFile))
            #expect((stored as? NSDictionary) == (try JSONSerialization.jsonObject(with: encoder.encode(step)) as? NSDictionary), "step \(id)")
        }
    }

    @Test func aStepIsWhatJSONEncoderWouldWrite() throws {
        let albums = CompatFixtures.unusualAlbums() + CompatFixtures.wholeAlbums()
        let edits: [LibraryEdit] = [
            .update(before: albums[0], after: albums[1]), .remove(albums[2], at: 4), .move(albums[3].id, from: 7, to: 0),
            .insert(albums[albums.count - 2], at: 9), .insert(albums[albums.count - 1], at: 10),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for step in [HistoryStep(LibraryChange(label: "every \"kind\"", edits: edits)), HistoryStep(compacting: LibraryChange(label: "run", edits: edits))] {
            #expect(step.json == String(decoding: try encoder.encode(step), as: UTF8.self))
            #expect(try JSONDecoder().decode(HistoryStep.self, from: Data(step.json.utf8)) == step)
        }
    }

    /// A database's step row is written into a string of the size counted first: a step of
    /// many buffers' worth (a covers fetch of a thousand albums) comes out whole and in order.
    @Test func aStepOfManyBuffersIsWhatJSONEncoderWouldWrite() throws {
        let albums = CompatFixtures.unusualAlbums() + CompatFixtures.wholeAlbums()
        let edits: [LibraryEdit] = (0..<400).map { .update(before: albums[$0 % albums.count], after: albums[($0 + 1) % albums.count]) }
        let step = HistoryStep(LibraryChange(label: "covers", edits: edits))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try encoder.encode(step), as: UTF8.self)
        #expect(expected.utf8.count > 1 << 20, "the step spans several of the writer's 256 KiB buffers: \(expected.utf8.count) bytes")
        #expect(step.json == expected)
    }
}
