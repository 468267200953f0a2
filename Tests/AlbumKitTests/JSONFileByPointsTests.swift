@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Synchronization
import Testing

/// A json library read by points and changed by splicing (``LibraryFileLines``,
/// ``SplicedAlbums``): the file written is the one a whole write gives, and a damaged or odd
/// file is read whole, refused or accepted as before.
@Suite struct JSONFileByPointsTests {
    /// Albums with every field, unicode and JSON specials, and plain ones.
    private static let albums = CompatFixtures.wholeAlbums() + CompatFixtures.unusualAlbums() + CompatFixtures.albums(count: 30)

    @Test func aChangeWrittenByPointsIsTheWholeWriteByteForByte() async throws {
        let folder = try TemporaryFolder("points")
        defer { folder.remove() }
        let byPoints = FileBackendKind.json.make(in: folder.path("points"))
        let whole = ReadWhole(backend: FileBackendKind.json.make(in: folder.path("whole")))
        #expect(byPoints.pointReads != nil && whole.pointReads == nil)
        var libraries: [Library] = []
        for backend in [byPoints, whole] as [any StorageBackend] {
            try await backend.create()
            libraries.append(try await Library.open(backend, hub: NotificationHub()))
        }
        let list = folder.path("albums.json")
        try JSONEncoder().encode(Self.albums).write(to: list)
        var patch = AlbumPatch(title: "Retitled \"quoted\" – ü")
        try patch.set("label", to: "Warp")
        try patch.set("mood", to: "calm")
        let more = folder.path("more.json")
        try JSONEncoder().encode(CompatFixtures.albums(count: 3).map { try! Album(id: AlbumID("more-\($0.id)"), title: "More \($0.title)", artist: $0.artist) }).write(to: more)
        func adding(_ title: String, at index: Int?) -> (Library) async throws -> Void {
            { library in
                let album = try Album(id: AlbumID("new-\(title)"), title: title, artist: "Someone")
                try await library.commit(label: "add") { snapshot in ([.insert(album, at: index ?? snapshot.albums.count)], ()) }
            }
        }
        let changes: [(String, (Library) async throws -> Void)] = [
            ("import", { _ = try await $0.importAlbums(from: [list]) }),
            ("update", { _ = try await $0.update(.position(3), patch) }),
            ("add", adding("New", at: 1)),
            ("add at the end", adding("Last", at: nil)),
            ("move", { try await $0.move(.position(1), to: 9) }),
            ("move back", { try await $0.move(.position(12), to: 2) }),
            ("remove", { _ = try await $0.remove([.position(2), .position(7)]) }),
            ("select", { _ = try await $0.select(.position(4)) }),
            ("remove the current", { _ = try await $0.remove([.position(4)]) }),
            ("undo", { _ = try await $0.undo() }),
            ("undo again", { _ = try await $0.undo() }),
            ("redo", { _ = try await $0.redo() }),
            ("import more", { _ = try await $0.importAlbums(from: [more]) }),
            ("update the last", { _ = try await $0.update(.position(try await $0.count()), patch) }),
            ("undo the import", { _ = try await $0.undo() ; _ = try await $0.undo() }),
        ]
        for (name, change) in changes {
            for library in libraries { try await change(library) }
            let written = try Data(contentsOf: folder.path("points/library.json"))
            #expect(written == (try Data(contentsOf: folder.path("whole/library.json"))), "after \(name)")
        }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedAlbumIsRefusedAsTheWholeFileIs(_ damage: Damage) async throws {
        let folder = try TemporaryFolder("points-damage")
        defer { folder.remove() }
        let file = folder.path("library.json")
        try await Self.wholeWrite(of: LibrarySnapshot(albums: Self.albums), in: folder.url).write(to: file)
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        lines[5] = damage.apply(to: lines[5])
        let bad = Data(lines.joined(separator: "\n").utf8)
        try bad.write(to: file)
        let whole = FileBackendKind.json.make(in: folder.url)
        let expected = await Self.failure { _ = try await whole.load() }
        #expect(expected != nil)
        let backend = FileBackendKind.json.make(in: folder.url)
        let reads = try #require(backend.pointReads)
        #expect(await Self.failure { _ = try await reads.albums(in: 4..<5) } == expected)
        #expect(await Self.failure { _ = try await Library.open(backend, hub: NotificationHub()).listed() } == expected)
        #expect(try Data(contentsOf: file) == bad, "the damaged file is left as it was")
    }

    @Test func aFileInAnotherLayoutIsReadWholeAndWrittenInTheWritersLayout() async throws {
        let folder = try TemporaryFolder("points-layout")
        defer { folder.remove() }
        let file = folder.path("library.json")
        let snapshot = LibrarySnapshot(albums: Self.albums)
        let canonical = try await Self.wholeWrite(of: snapshot, in: folder.path("whole"))
        let pretty = try JSONSerialization.data(
            withJSONObject: try JSONSerialization.jsonObject(with: canonical), options: [.prettyPrinted, .sortedKeys])
        try pretty.write(to: file)
        let backend = FileBackendKind.json.make(in: folder.url)
        let library = try await Library.open(backend, hub: NotificationHub())
        #expect(try await library.album(.position(3)).album == Self.albums[2])
        _ = try await library.update(.position(3), AlbumPatch(title: "Changed"))
        #expect(try await library.album(.position(3)).album.title == "Changed")
        #expect(try Data(contentsOf: file) == (try await Self.wholeWrite(of: backend.load(), in: folder.path("after"))))
    }

    @Test func theWritersLayoutIsFoundByItsLines() async throws {
        let folder = try TemporaryFolder("points-lines")
        defer { folder.remove() }
        let file = folder.path("library.json")
        try await Self.wholeWrite(of: LibrarySnapshot(albums: Self.albums), in: folder.url).write(to: file)
        let lines = try #require(LibraryFileLines(try FileText(contentsOf: file)))
        #expect(lines.ids == Self.albums.map(\.id))
        #expect(lines.albums(in: 0..<lines.count) == Self.albums)
        for album in Self.albums.prefix(12) {
            #expect(lines.firstIndex(ofDuplicateKey: album.duplicateKey) == .found(Self.albums.firstIndex { $0.hasDuplicateKey(album.duplicateKey) }!))
        }
        #expect(lines.firstIndex(ofDuplicateKey: Album.duplicateKey(artist: "Nobody", title: "Nothing", year: "1999")) == LibraryFileLines.Lookup.none)
    }

    @Test func aLargeFileIsFoundByItsLinesOnEveryCore() async throws {
        let folder = try TemporaryFolder("points-large")
        defer { folder.remove() }
        let file = folder.path("library.json")
        var albums = CompatFixtures.albums(count: 3_000)
        // The same key twice: the first is found, whichever part of the file the second is in.
        albums[2_500] = try Album(id: AlbumID("twin"), title: albums[1_200].title, artist: albums[1_200].artist, year: albums[1_200].year)
        try await Self.wholeWrite(of: LibrarySnapshot(albums: albums), in: folder.url).write(to: file)
        let lines = try #require(LibraryFileLines(try FileText(contentsOf: file)))
        #expect(lines.ids == albums.map(\.id))
        for index in [0, 1_200, 1_499, 1_500, 2_999] {
            #expect(lines.firstIndex(ofDuplicateKey: albums[index].duplicateKey) == .found(albums.firstIndex { $0.hasDuplicateKey(albums[index].duplicateKey) }!))
        }
        #expect(lines.firstIndex(ofDuplicateKey: albums[2_500].duplicateKey) == .found(1_200))
        #expect(lines.firstIndex(ofDuplicateKey: Album.duplicateKey(artist: "Nobody", title: "Nothing", year: "1999")) == LibraryFileLines.Lookup.none)
    }

    @Test func aListingReadsOnlyTheDetailsItNames() async throws {
        let folder = try TemporaryFolder("points-details")
        defer { folder.remove() }
        try await Self.wholeWrite(of: LibrarySnapshot(albums: Self.albums), in: folder.url).write(to: folder.path("library.json"))
        let backend = FileBackendKind.json.make(in: folder.url)
        var read: [Album] = []
        for try await piece in backend.pieces(inRunsOf: 7, details: [.label]) {
            if case .albums(let albums) = piece { read += albums }
        }
        #expect(read.map(\.id) == Self.albums.map(\.id))
        #expect(read.map { $0[.label] } == Self.albums.map { $0[.label] })
        #expect(read.allSatisfy { $0.tracks.isEmpty })
        #expect(Self.albums.contains { !$0.tracks.isEmpty })
        let whole = try await backend.load()
        #expect(whole.albums == Self.albums)
    }

    /// Labels, titles and artists a raw look at an album's line must not misjudge: ASCII in
    /// any case, padded, escaped, and text that folds to ASCII only through Foundation's folding.
    private static let scanned: [Album] = {
        let texts = [
            "Warp", "WARP Records", "  warp  ", "Wärp", "Straße", "ﬁrst warp", "war p", "\"Warp\" \\ ", "Kino – Warp", "Ｗarp",
            "Motown", "東京", "", "Café Warp", "warped",
        ]
        return texts.enumerated().map { index, text in
            var details = AlbumDetails()
            if !text.isEmpty { details[.label] = text }
            if index % 3 == 0 { details[.catalogNumber] = "WARP \(index)" }
            if index % 4 == 1 { details.fields = ["mood": "warp"] }
            let title = index % 5 == 0 ? "Title \(text)" : "Title \(index)"
            let cover = index % 2 == 0 ? "covers/\(String(repeating: index % 4 == 0 ? "a" : "b", count: 64)).png" : nil
            return try! Album(id: AlbumID("scan-\(index)"), title: title, artist: index % 7 == 0 ? text.isEmpty ? "Nobody" : text : "Artist \(index)",
                year: index % 2 == 0 ? "1999" : "", coverUrl: cover, details: details)
        }
    }()

    private static let scanQueries = [
        ["label:warp"], ["label:WARP"], ["warp"], ["label:strasse"], ["label:first"], ["label:café"], ["title:warp", "label:records"],
        ["artist:warp"], ["catalogNumber:warp"], ["label:warp", "cover:stored"], ["label:warp", "position:3..9"], ["^label:warp"],
        ["label:東京"], ["1999"], ["label:warp", "year:1999"], ["mood:warp"], ["label:a"],
    ]

    @Test func aQueryOnTextFieldsListsWhatTheWholeListingLists() async throws {
        let folder = try TemporaryFolder("points-scan")
        defer { folder.remove() }
        var listings: [[[ListedAlbum]]] = []
        for name in ["points", "whole"] {
            // Written by one backend, read by another: a backend that wrote the file holds its albums.
            _ = try await Self.wholeWrite(of: LibrarySnapshot(albums: Self.scanned + Self.albums), in: folder.path(name))
            let backend = FileBackendKind.json.make(in: folder.path(name))
            // One cover stored, the other missing.
            try FileManager.default.createDirectory(at: folder.path("\(name)/covers"), withIntermediateDirectories: true)
            try Data("png".utf8).write(to: folder.path("\(name)/covers/\(String(repeating: "a", count: 64)).png"))
            let library = try await Library.open(name == "points" ? backend : ReadWhole(backend: backend), hub: NotificationHub())
            var listed: [[ListedAlbum]] = []
            for terms in Self.scanQueries { listed.append(try await library.listed(matching: try AlbumQuery(terms: terms))) }
            listings.append(listed)
        }
        for (index, terms) in Self.scanQueries.enumerated() {
            #expect(listings[0][index] == listings[1][index], "\(terms)")
        }
        #expect(listings[1][0].count > 1 && listings[1][0].contains { $0.cover == .stored } && listings[1][0].contains { $0.cover == .missing })
    }

    @Test func aQueryOnTextFieldsReadsOnlyTheAlbumsThatMayMatch() async throws {
        let folder = try TemporaryFolder("points-scan-read")
        defer { folder.remove() }
        try await Self.wholeWrite(of: LibrarySnapshot(albums: Self.scanned + Self.albums), in: folder.url).write(to: folder.path("library.json"))
        let scan = try #require(FileBackendKind.json.make(in: folder.url).pointReads as? any LibraryTextFieldScan)
        let query = try AlbumQuery(terms: ["label:warp"])
        let found = try #require(try await scan.albums(mayHolding: query.wordsInTextFields, details: query.details))
        let matching = Self.scanned.indices.filter { query.matches(ListedAlbum(position: $0 + 1, album: Self.scanned[$0], cover: .none)) }
        #expect(found.count == Self.scanned.count + Self.albums.count)
        #expect(Set(matching).isSubset(of: found.albums.map(\.position)))
        // Read besides the matches: the labels a raw look cannot judge (escaped, not ASCII).
        #expect(found.albums.count < matching.count + 6, "\(found.albums.map(\.album.id))")
        let all = Self.scanned + Self.albums
        #expect(found.albums.allSatisfy { $0.album.id == all[$0.position].id && $0.album[.label] == all[$0.position][.label] })
    }

    /// Eight albums on Warp, the fifth (line 5 of the file) on Motown.
    private static let labelled: [Album] = (0..<8).map { index in
        var details = AlbumDetails()
        details[.label] = index == 4 ? "Motown" : "Warp"
        return try! Album(id: AlbumID("labelled-\(index)"), title: "Title \(index)", artist: "Artist \(index)", details: details)
    }

    /// The library file of ``labelled`` with its fifth album's line changed by `damage`,
    /// written in `folder`; and what a whole load of it throws.
    private static func damagedLabelled(in folder: TemporaryFolder, _ damage: (String) -> String) async throws -> String? {
        let file = folder.path("library.json")
        try await wholeWrite(of: LibrarySnapshot(albums: labelled), in: folder.url).write(to: file)
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        lines[5] = damage(lines[5])
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        return await failure { _ = try await FileBackendKind.json.make(in: folder.url).load() }
    }

    /// The rule point reads follow: damage is noticed when something reads the album. A query
    /// that cannot match the damaged album lists the others unread; one that may match it, and
    /// the listing of every album, refuse the library as the whole load does.
    @Test(arguments: [Damage.ratingOffTheScale, .noTitle])
    func aQueryThatCannotMatchADamagedAlbumListsTheOthers(_ damage: Damage) async throws {
        let folder = try TemporaryFolder("points-scan-damage")
        defer { folder.remove() }
        let expected = try #require(await Self.damagedLabelled(in: folder, damage.apply))
        let library = try await Library.open(FileBackendKind.json.make(in: folder.url), hub: NotificationHub())
        let warp = try await library.listed(matching: try AlbumQuery(terms: ["label:warp"]))
        #expect(warp.map(\.album.id) == Self.labelled.filter { $0[.label] == "Warp" }.map(\.id))
        #expect(try await library.album(.position(1)).album == Self.labelled[0])
        #expect(await Self.failure { _ = try await library.listed(matching: try AlbumQuery(terms: ["label:motown"])) } == expected)
        #expect(await Self.failure { _ = try await library.listed() } == expected)
    }

    /// A field given twice: the strict reader refuses the album and the whole file's reader
    /// takes one copy, so a look at the line must not judge the album by its first copy.
    @Test func anAlbumGivingAFieldTwiceIsReadByAQueryOnIt() async throws {
        let folder = try TemporaryFolder("points-scan-twice")
        defer { folder.remove() }
        let twice = { (line: String) in
            line.replacingOccurrences(of: #""label":"Motown""#, with: #""label":"Warp""#)
                .replacingOccurrences(of: "{", with: #"{"label":"Motown","#, options: .anchored)
        }
        #expect(try await Self.damagedLabelled(in: folder, twice) == nil)
        let lines = try #require(LibraryFileLines(try FileText(contentsOf: folder.path("library.json"))))
        let query = try AlbumQuery(terms: ["label:warp"])
        #expect(lines.album(at: 4) == nil, "the strict reader refuses a field given twice")
        #expect(lines.mayHold(query.wordsInTextFields, at: 4))
        let backend = FileBackendKind.json.make(in: folder.url)
        let whole = try await backend.load().albums.enumerated().filter { query.matches(ListedAlbum(position: $0.offset + 1, album: $0.element, cover: .none)) }
        let library = try await Library.open(backend, hub: NotificationHub())
        #expect(try await library.listed(matching: query).map(\.album.id) == whole.map(\.element.id))
    }

    @Test func aChangeCountsTheAlbumsItLeaves() async throws {
        let folder = try TemporaryFolder("points-count")
        defer { folder.remove() }
        let backend = FileBackendKind.json.make(in: folder.url)
        try await backend.create()
        let hub = NotificationHub()
        let counts = Mutex<[Int]>([])
        let subscription = hub.subscribe { event in
            if case .saved(_, let count) = event { counts.withLock { $0.append(count) } }
        }
        defer { subscription.cancel() }
        let library = try await Library.open(backend, hub: hub)
        let list = folder.path("albums.json")
        try JSONEncoder().encode(Self.albums).write(to: list)
        _ = try await library.importAlbums(from: [list])
        _ = try await library.remove([.position(2), .position(7)])
        _ = try await library.update(.position(1), AlbumPatch(title: "Changed"))
        try await library.move(.position(1), to: 3)
        _ = try await library.undo()
        _ = try await library.undo()
        _ = try await library.undo()
        _ = try await library.redo()
        let expected = [Self.albums.count, Self.albums.count - 2, Self.albums.count - 2, Self.albums.count - 2, Self.albums.count - 2, Self.albums.count - 2, Self.albums.count, Self.albums.count - 2]
        #expect(counts.withLock { $0 } == expected)
    }

    /// Ways to damage one album's line.
    enum Damage: String, CaseIterable, Sendable, CustomStringConvertible {
        case cutShort, ratingOffTheScale, noTitle, notAnObject
        var description: String { rawValue }

        func apply(to line: String) -> String {
            switch self {
            case .cutShort: String(line.prefix(line.count / 2)) + ","
            case .ratingOffTheScale: line.replacingOccurrences(of: #"{"#, with: #"{"rating":7,"#, options: .anchored)
            case .noTitle: line.replacingOccurrences(of: #""title":"#, with: #""titel":"#)
            case .notAnObject: "[1,2],"
            }
        }
    }

    /// What `body` throws, as it reads; nil when it throws nothing.
    private static func failure(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The library file a whole write of `snapshot` gives, written in `folder`.
    private static func wholeWrite(of snapshot: LibrarySnapshot, in folder: URL) async throws -> Data {
        let backend = FileBackendKind.json.make(in: folder)
        try await backend.create()
        try await backend.withWriter { writer, _ in try await writer.save(snapshot, change: .replaceAll()) }
        return try Data(contentsOf: folder.appendingPathComponent("library.json"))
    }
}

/// A backend read and written whole, as a json library was before point reads: the
/// reference a change by points must match.
private struct ReadWhole: StorageBackend {
    let backend: any StorageBackend
    var location: String { backend.location }
    var covers: any CoverStore { backend.covers }
    func exists() async throws -> Bool { try await backend.exists() }
    func create() async throws { try await backend.create() }
    func load() async throws -> LibrarySnapshot { try await backend.load() }
    func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] { try await backend.steps(ids) }
    func beginWrite() async throws -> any StorageWriter { Writer(writer: try await backend.beginWrite()) }

    private struct Writer: StorageWriter {
        let writer: any StorageWriter
        func load() async throws -> LibrarySnapshot { try await writer.load() }
        func steps(_ ids: [Int64]) async throws -> [Int64: HistoryStep] { try await writer.steps(ids) }
        func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws { try await writer.save(snapshot, change: change) }
        func finish() async { await writer.finish() }
    }
}
