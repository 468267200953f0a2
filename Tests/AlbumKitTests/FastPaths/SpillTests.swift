@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// Scratch files: what an import writes between its reading, its stages and its commit comes
/// back exactly, in order, as often as it is read.
@Suite struct SpillTests {
    /// Items of every shape — with and without ids, labels of lists (titled as the record or
    /// not) and of text, inputs and folders that repeat and change, every kind of cover
    /// payload and disposition, stored and other cover references, fields longer than a read
    /// — come back as they were written, past many buffer flushes, by two readers at once.
    @Test func itemsComeBackAsTheyWereWritten() throws {
        let folder = try TemporaryFolder("spill-items")
        defer { folder.remove() }
        let items = (0..<3_000).map(Self.item)
        var writer = try Spilled<ImportItem>.Writer(in: folder.url)
        for item in items { try writer.append(item) }
        let spilled = try writer.finish()
        #expect(spilled.count == items.count)
        var first = spilled.reader()
        var second = spilled.reader()
        for (index, item) in items.enumerated() {
            let read = try first.next()
            #expect(read == item, "item \(index)")
            #expect(read?.hadID == item.hadID && read?.disposition == item.disposition && read?.cover?.file == item.cover?.file)
            #expect(read?.record.coverUrl == item.record.coverUrl && read?.labelled.description == item.labelled.description)
            #expect(try second.next() == item)
        }
        #expect(try first.next() == nil)
        #expect(try first.next() == nil, "a reader at its end stays there")
    }

    /// A run of albums reads back in order; a replacement shows in place for the library's
    /// readers and not for the import's report; the first and last ids are the run's.
    @Test func appendedAlbumsReadBackWithTheirReplacements() throws {
        let folder = try TemporaryFolder("spill-albums")
        defer { folder.remove() }
        let albums = CompatFixtures.albums(count: 2_000) + CompatFixtures.unusualAlbums()
        var writer = try SpilledRun.Writer(in: folder.url)
        for album in albums { try writer.append(album) }
        var replacement = albums[10]
        replacement.title = "Replaced"
        writer.replace(at: 10, with: replacement)
        let run = AlbumRun(try writer.finish())
        #expect(run.count == albums.count && run.first == albums.first?.id && run.last == albums.last?.id)
        var expected = albums
        expected[10] = replacement
        #expect(try run.all() == expected)
        var asWritten = run.readerAsWritten()
        var read: [Album] = []
        while let album = try asWritten.next() { read.append(album) }
        #expect(read == albums)
        var inRuns = run.reader()
        var runs: [[Album]] = []
        while case let next = try inRuns.next(upTo: 512), !next.isEmpty { runs.append(next) }
        #expect(runs.map(\.count).dropLast().allSatisfy { $0 == 512 } && Array(runs.joined()) == expected)
    }

    /// A scratch file has no name: nothing is left in its folder, while it is in use or after.
    @Test func aScratchFileLeavesNothingInItsFolder() throws {
        let folder = try TemporaryFolder("spill-unnamed")
        defer { folder.remove() }
        let run = AlbumRun(try SpilledRun(CompatFixtures.albums(count: 10), in: folder.url))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        #expect(try run.all().count == 10)
    }

    /// A damaged record whose one-value field's place is past ``AlbumField/scalars`` is
    /// refused with an error, not read out of range.
    @Test(arguments: [AlbumField.scalars.count, 255])
    func aFieldPlaceOutOfRangeIsRefused(_ place: Int) throws {
        var details = AlbumDetails()
        details[.label] = "Warp"
        let record = AlbumRecord(title: "Selected Ambient Works", artist: "Aphex Twin", details: details)
        var bare = SpillEncoder()
        bare.record(AlbumRecord(title: record.title, artist: record.artist))
        var encoder = SpillEncoder()
        encoder.record(record)
        // The bare record ends with the details' 0; this one has a 1, the count 1, then the place.
        let at = bare.bytes.count + 1
        var bytes = encoder.bytes
        #expect(Int(bytes[at]) == AlbumField.scalars.firstIndex(of: .label))
        #expect(try Self.decoded(bytes) == record)
        bytes[at] = UInt8(place)
        let error = #expect(throws: AlbumKitError.self) { try Self.decoded(bytes) }
        #expect(error?.kind == .fileSystem && error?.description.contains("unknown field") == true)
    }

    private static func decoded(_ bytes: [UInt8]) throws -> AlbumRecord {
        try bytes.withUnsafeBytes { buffer in
            var decoder = SpillDecoder(buffer)
            return try decoder.record()
        }
    }

    private static func item(_ index: Int) -> ImportItem {
        let long = String(repeating: "ü", count: index == 1_500 ? 150_000 : 3)
        let cover: String? = switch index % 4 {
        case 0: nil
        case 1: "covers/" + String(repeating: String(format: "%02x", index % 256), count: 32) + ".jpg"
        case 2: "https://example.test/\(index).png"
        default: "covers/not-a-digest.png"
        }
        let record = AlbumRecord(
            id: index % 3 == 0 ? nil : AlbumID("id \(index)"), title: "Title \(index) \(long)", artist: "Artist \(index % 5)",
            genre: index % 2 == 0 ? "" : "Genre", year: index % 7 == 0 ? "" : "19\(index % 100)", coverUrl: cover)
        let input = index < 2_000 ? "/in/first.tar.gz" : "/in/second \(index / 500).json"
        let label: AlbumLabel = switch index % 3 {
        case 0: AlbumLabel(list: input, number: index + 1, title: record.title)
        case 1: AlbumLabel(list: input + " entry albums.json", number: index + 1, title: "as read \(index)")
        default: "\(input) track \(index)"
        }
        var item = ImportItem(record: record, labelled: label, input: input)
        let key = CoverKey(bytes: Data("cover \(index % 50)".utf8), fileExtension: index % 2 == 0 ? "png" : "jpg")
        switch index % 5 {
        case 0: item.cover = nil
        case 1: item.cover = CoverPayload(key: key, file: nil)
        case 2: item.cover = CoverPayload(key: key, file: URL(fileURLWithPath: "/staged/\(index) é.png"))
        case 3: item.cover = CoverPayload(key: key, inFolder: URL(fileURLWithPath: "/library/covers", isDirectory: true))
        default: item.cover = CoverPayload(key: CoverKey(sha256: "not hex \(index)", fileExtension: "gif"), inFolder: URL(fileURLWithPath: "/other \(index / 1_000)"))
        }
        item.disposition = switch index % 3 {
        case 0: .add
        case 1: .replace(AlbumID("earlier \(index)"))
        default: .copy
        }
        if index % 11 == 0 { item.record.id = AlbumID("given later \(index)") }
        return item
    }
}
