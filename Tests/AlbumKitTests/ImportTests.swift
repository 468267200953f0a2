import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// JSON and property-list sources, and the import pipeline's merge rules.
@Suite struct ImportTests {
    static let tutorialJSON = """
        [
          {"title": "Best of Bowie", "artist": "David Bowie", "genre": "Pop", "year": "1992", "coverUrl": "https://example.com/bowie.png"},
          {"title": "It's My Life", "artist": "No Doubt", "genre": "Pop", "year": 2003},
          {"title": "Nothing Like The Sun", "artist": "Sting", "genre": "Pop", "year": "1999", "rating": 5}
        ]
        """

    private func makeLibrary(_ folder: TemporaryFolder) async throws -> Library {
        let backend = FileBackendKind.json.make(in: folder.path("lib"))
        try await backend.create()
        return try await Library.open(backend, hub: NotificationHub())
    }

    private func importing(_ paths: [URL], into library: Library, policy: DuplicatePolicy = .skip, dryRun: Bool = false) async throws -> ImportSummary {
        try await library.importAlbums(from: paths, options: ImportOptions(onDuplicate: policy, dryRun: dryRun)).report.summary
    }

    @Test func tutorialJSONAndWrappedFormImport() async throws {
        let folder = try TemporaryFolder("import")
        defer { folder.remove() }
        let plain = folder.path("albums.json")
        try Data(Self.tutorialJSON.utf8).write(to: plain)
        let wrapped = folder.path("wrapped.json")
        try Data(#"{"albums": [{"title": "Low", "artist": "David Bowie", "year": 1977}], "other": 1}"#.utf8).write(to: wrapped)
        let library = try await makeLibrary(folder)
        let summary = try await importing([plain, wrapped], into: library)
        #expect(summary.added == 4)
        #expect(try await library.albums().map(\.title) == ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Low"])
        #expect(try await library.albums()[1].year == "2003")
        try await library.undo()
        #expect(try await library.albums().isEmpty, "one undo takes a whole import back")
    }

    /// The library publishes an import's events from one place: its own account of the change
    /// (`library.*`, once saved), then each album's outcome, then the end; a refused import
    /// publishes its failure and nothing of the library's.
    @Test func importPublishesTheChangeThenEachOutcomeThenTheEnd() async throws {
        let folder = try TemporaryFolder("import-events")
        defer { folder.remove() }
        let library = try await makeLibrary(folder)
        try await library.add(AlbumRecord(id: "kid-a", title: "Kid A", artist: "Radiohead"))
        let list = folder.path("albums.json")
        try Data(#"[{"id": "kid-a", "title": "Kid A (remaster)", "artist": "Radiohead"}, {"title": "Low", "artist": "David Bowie"}]"#.utf8).write(to: list)
        let broken = folder.path("broken.json")
        try Data(#"[{"title": "Low""#.utf8).write(to: broken)
        let names = NamesCollector()
        let subscription = library.hub.subscribe { event in
            if !["import.progress", "pipeline.stageFinished"].contains(event.name) { names.append(event.name) }
        }
        defer { subscription.cancel() }
        _ = try await library.importAlbums(from: [list], options: ImportOptions(onDuplicate: .replace))
        await #expect(throws: AlbumKitError.self) { try await library.importAlbums(from: [broken]) }
        #expect(names.all == [
            "import.started", "library.albumUpdated", "library.albumAdded", "library.saved",
            "import.albumImported", "import.albumImported", "import.finished",
            "import.started", "import.failed",
        ])
    }

    /// With no subscriber taking `library.albumAdded` or `import.albumImported`, the import
    /// does not read its albums back for them, and still counts every outcome and asks for the
    /// covers its albums name (the progress display of the CLI subscribes so).
    @Test func importWhoseSubscribersTakeNoAlbumEventsStillCountsAndRequestsCovers() async throws {
        let folder = try TemporaryFolder("import-few-events")
        defer { folder.remove() }
        let library = try await makeLibrary(folder)
        let list = folder.path("albums.json")
        try Data(Self.tutorialJSON.utf8).write(to: list)
        let names = NamesCollector()
        let subscription = library.hub.subscribe(to: ["cover.requested", "import.finished"]) { event in
            if case .coverRequested(_, let reference) = event { names.append(reference) } else { names.append(event.name) }
        }
        defer { subscription.cancel() }
        let summary = try await importing([list], into: library)
        #expect((summary.added, summary.skipped) == (3, 0))
        #expect(names.all == ["https://example.com/bowie.png", "import.finished"])
        #expect(try await library.albums().map(\.title) == ["Best of Bowie", "It's My Life", "Nothing Like The Sun"])
    }

    /// The import reads its new albums back (a reader opened on the appended run, counted by
    /// `AlbumRun.readersOpened`) once for `library.albumAdded`, once for
    /// `import.albumImported`, once for `cover.requested` when an album names a cover — each
    /// only when a subscriber takes it; otherwise only the save reads them. (Delivery filters
    /// events by name anyway: what the subscriber receives cannot tell a skipped pass.)
    @Test func importReadsItsAlbumsBackOnlyForTheEventsASubscriberTakes() async throws {
        let withoutCovers = #"[{"title": "Low", "artist": "David Bowie"}, {"title": "Heroes", "artist": "David Bowie"}]"#
        func readers(_ json: String, taking names: Set<String>?) async throws -> Int {
            let folder = try TemporaryFolder("import-read-back")
            defer { folder.remove() }
            let library = try await makeLibrary(folder)
            let list = folder.path("albums.json")
            try Data(json.utf8).write(to: list)
            let subscription = library.hub.subscribe(to: names) { _ in }
            defer { subscription.cancel() }
            let count = AlbumRun.ReaderCount()
            let summary = try await AlbumRun.$readersOpened.withValue(count) { try await importing([list], into: library) }
            #expect(summary.added == (json == withoutCovers ? 2 : 3))
            return count.value
        }
        let saved = try await readers(Self.tutorialJSON, taking: ["import.finished"])
        #expect(saved >= 1, "the save reads the run")
        let taking: [(String, Set<String>?)] = [
            (withoutCovers, ["import.finished", "cover.requested"]), (Self.tutorialJSON, ["cover.requested"]), (Self.tutorialJSON, ["library.albumAdded"]),
            (Self.tutorialJSON, ["import.albumImported"]), (Self.tutorialJSON, ["library.albumAdded", "import.albumImported"]), (Self.tutorialJSON, nil),
        ]
        var more: [Int] = []
        for (json, names) in taking { more.append(try await readers(json, taking: names) - saved) }
        // No album names a cover; then one pass each; both passes; a subscriber of every event takes both.
        #expect(more == [0, 1, 1, 1, 2, 2], "readers beyond the save's \(saved)")
    }

    @Test(arguments: ["xml", "binary"])
    func plistWrittenByPythonPlistlibImports(_ format: String) async throws {
        let folder = try TemporaryFolder("plist")
        defer { folder.remove() }
        let file = folder.path("albums.plist")
        let script = """
            import plistlib, sys
            albums = [{"title": "Homogenic", "artist": "Björk", "year": 1997, "genre": "Electronic"},
                      {"id": "kid-a", "title": "Kid A", "artist": "Radiohead", "year": "2000", "unknown": [1, 2]}]
            root = albums if sys.argv[2] == "xml" else {"albums": albums}
            with open(sys.argv[1], "wb") as f:
                plistlib.dump(root, f, fmt=plistlib.FMT_XML if sys.argv[2] == "xml" else plistlib.FMT_BINARY)
            """
        let result = try runProgram("/usr/bin/env", ["python3", "-c", script, file.path, format])
        #expect(result.status == 0, "\(result.output)")
        let library = try await makeLibrary(folder)
        let summary = try await importing([file], into: library)
        #expect(summary.added == 2)
        let albums = try await library.albums()
        #expect(albums.map(\.title) == ["Homogenic", "Kid A"])
        #expect(albums[0].artist == "Björk" && albums[0].year == "1997")
        #expect(albums[1].id == "kid-a")
    }

    @Test(arguments: DuplicatePolicy.allCases)
    func duplicatesFollowThePolicy(_ policy: DuplicatePolicy) async throws {
        let folder = try TemporaryFolder("dup")
        defer { folder.remove() }
        let library = try await makeLibrary(folder)
        try await library.add(AlbumRecord(id: "kept-id", title: "Kid A", artist: "Radiohead", year: "2000"))
        try await library.add(AlbumRecord(title: "Low", artist: "David Bowie", year: "1977"))
        let file = folder.path("in.json")
        try Data(#"""
            [{"id": "kept-id", "title": "Kid A (remaster)", "artist": "Radiohead", "year": "2000"},
             {"title": "LOW", "artist": "david bowie", "year": 1977, "genre": "Art rock"},
             {"title": "Heroes", "artist": "David Bowie", "year": 1977}]
            """#.utf8).write(to: file)
        let summary = try await importing([file], into: library, policy: policy)
        let albums = try await library.albums()
        switch policy {
        case .skip:
            #expect((summary.added, summary.skipped) == (1, 2))
            #expect(albums.map(\.title) == ["Kid A", "Low", "Heroes"])
        case .replace:
            #expect((summary.added, summary.replaced) == (1, 2))
            #expect(albums.map(\.title) == ["Kid A (remaster)", "LOW", "Heroes"])
            #expect(albums[0].id == "kept-id")
        case .keep:
            #expect((summary.added, summary.kept) == (1, 2))
            #expect(albums.count == 5)
            #expect(Set(albums.map(\.id)).count == 5, "kept copies get new ids")
        }
        try await library.undo()
        #expect(try await library.albums().map(\.title) == ["Kid A", "Low"])
    }

    /// A skipped duplicate names the album it duplicates as that album was held: one of the
    /// library's by id or by artist, title and year, or an earlier album of the same import.
    @Test func aSkippedDuplicateNamesTheAlbumItDuplicates() async throws {
        let folder = try TemporaryFolder("dup-reasons")
        defer { folder.remove() }
        let library = try await makeLibrary(folder)
        try await library.add(AlbumRecord(id: "kept-id", title: "Kid A", artist: "Radiohead", year: "2000"))
        try await library.add(AlbumRecord(id: "low-id", title: "Low", artist: "David Bowie", year: "1977"))
        let file = folder.path("in.json")
        try Data(#"""
            [{"id": "kept-id", "title": "Kid A (remaster)", "artist": "Radiohead"},
             {"title": "LOW", "artist": "david bowie", "year": 1977},
             {"id": "new-id", "title": "Heroes", "artist": "David Bowie"},
             {"title": "heroes", "artist": "DAVID BOWIE"},
             {"id": "new-id", "title": "Lodger", "artist": "David Bowie"}]
            """#.utf8).write(to: file)
        let plan = try await library.importAlbums(from: [file], options: ImportOptions(onDuplicate: .skip, dryRun: true)).report.plan
        #expect(plan.entries.map(\.reason) == [
            "duplicate of the library's 'Kid A' by Radiohead (id kept-id)",
            "duplicate of the library's 'Low' by David Bowie (id low-id)",
            nil,
            "duplicate of an earlier album of this import, 'Heroes' by David Bowie (id new-id)",
            "duplicate of an earlier album of this import, 'Heroes' by David Bowie (id new-id)",
        ])
    }

    @Test func dryRunWritesNothing() async throws {
        let folder = try TemporaryFolder("dry")
        defer { folder.remove() }
        let library = try await makeLibrary(folder)
        let file = folder.path("albums.json")
        try Data(Self.tutorialJSON.utf8).write(to: file)
        let before = try Data(contentsOf: folder.path("lib/library.json"))
        let summary = try await importing([file], into: library, dryRun: true)
        #expect(summary.added == 3 && summary.dryRun)
        #expect(try Data(contentsOf: folder.path("lib/library.json")) == before)
    }

    /// Each bad input is refused with an error of the right kind that names the file and
    /// says what is wrong with it; nothing is written.
    @Test(arguments: [
        ("bad.json", #"[{"title": "T"}]"#, AlbumKitError.Kind.unreadableInput, "artist"),
        ("bad.json", #"[{"title": "T", "artist": "A", "year": [1]}]"#, .unreadableInput, "year"),
        ("bad.json", #"[{"title": "T", "artist": "A\u0001"}]"#, .invalidAlbum, "control character"),
        ("bad.json", #"{"albums": 5}"#, .unreadableInput, "albums"),
        ("trunc.json", #"[{"title": "T", "art"#, .unreadableInput, "the input ends inside a string"),
        ("empty.json", "", .unreadableInput, "the input is empty"),
        ("bad.plist", "<?xml version=\"1.0\"?><plist><dict><key>x</key>", .unreadableInput, "not a plist album list"),
    ])
    func badInputIsRefusedAndNothingIsWritten(_ name: String, _ content: String, _ kind: AlbumKitError.Kind, _ expected: String) async throws {
        let folder = try TemporaryFolder("bad")
        defer { folder.remove() }
        let library = try await makeLibrary(folder)
        let good = folder.path("good.json")
        try Data(Self.tutorialJSON.utf8).write(to: good)
        let bad = folder.path(name)
        try Data(content.utf8).write(to: bad)
        let before = try Data(contentsOf: folder.path("lib/library.json"))
        let error = await #expect(throws: AlbumKitError.self) { _ = try await importing([good, bad], into: library) }
        #expect(error?.kind == kind, "\(String(describing: error))")
        #expect(error?.description.contains(bad.path) == true, "the error names the file: \(String(describing: error))")
        #expect(error?.description.contains(expected) == true, "the error says '\(expected)': \(String(describing: error))")
        #expect(try Data(contentsOf: folder.path("lib/library.json")) == before, "a failed import must change nothing")
    }

    /// Lists naming more covers they lack than are named one by one: the first albums are
    /// named, the rest counted in one warning per input; every album comes in with its cover
    /// missing.
    @Test func albumsLackingTheirCoversPastTheFirstAreCounted() async throws {
        let folder = try TemporaryFolder("lacking")
        defer { folder.remove() }
        let library = try await makeLibrary(folder)
        let named = CoversStage.namedMissing
        let first = try listLackingCovers(folder.path("first.json"), 0..<(named + 5))
        let second = try listLackingCovers(folder.path("second.json"), (named + 5)..<(named + 6))
        let summary = try await importing([first, second], into: library)
        #expect(summary.added == named + 6)
        #expect(summary.warnings.count == named + 2, "\(summary.warnings)")
        #expect(summary.warnings.prefix(named).enumerated().allSatisfy { $1.contains("album 'Album \($0)' names cover covers/") })
        #expect(summary.warnings.dropFirst(named).first?.hasPrefix("\(first.path): 5 more albums name covers the input lacks; their covers are missing") == true)
        #expect(summary.warnings.last?.hasPrefix("\(second.path): 1 more album names a cover the input lacks; its cover is missing") == true)
        #expect(try await library.listed(matching: AlbumQuery(parsing: "cover:missing")).count == named + 6)
    }

    /// A restore words and counts albums lacking their covers as an import does: the first
    /// named, the rest in one warning.
    @Test func aRestoreCountsAlbumsLackingTheirCoversPastTheFirst() async throws {
        let folder = try TemporaryFolder("lacking-restore")
        defer { folder.remove() }
        let library = try await makeLibrary(folder)
        let named = CoversStage.namedMissing
        let list = try listLackingCovers(folder.path("list.json"), 0..<(named + 7))
        let report = try await library.restore(from: list)
        #expect(report.albums == named + 7)
        #expect(report.warnings.count == named + 1, "\(report.warnings)")
        #expect(report.warnings.prefix(named).enumerated().allSatisfy { $1.contains("album 'Album \($0)' names cover covers/") })
        #expect(report.warnings.last?.hasPrefix("\(list.path): 7 more albums name covers the input lacks; their covers are missing") == true)
    }

    /// Writes to `file` a list of the albums `albums`, each naming a cover no input holds.
    private func listLackingCovers(_ file: URL, _ albums: Range<Int>) throws -> URL {
        let entries = albums.map { #"{"title": "Album \#($0)", "artist": "A", "coverUrl": "covers/\#(String(repeating: "0", count: 60) + String(format: "%04x", $0)).png"}"# }
        try Data("[\(entries.joined(separator: ", "))]".utf8).write(to: file)
        return file
    }

    @Test func unknownInputKindIsNamed() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let library = try await makeLibrary(folder)
        let file = folder.path("notes.txt")
        try Data("hello".utf8).write(to: file)
        await #expect { _ = try await importing([file], into: library) } throws: { "\($0)".contains("notes.txt") }
    }
}
