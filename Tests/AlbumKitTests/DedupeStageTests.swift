@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// `dedupe` remembering many albums: by fingerprint tables, and the names of this import's
/// albums in a scratch file.
@Suite struct DedupeStageTests {
    /// After 6 000 albums with long titles (past the scratch file's first flush), a duplicate
    /// of an early one — by key, and by id — and of one of the library is skipped with a reason
    /// that names it as it was held.
    @Test func duplicatesOfAlbumsLongPassedAreNamedAsTheyWereHeld() async throws {
        let folder = try TemporaryFolder("dedupe-many")
        defer { folder.remove() }
        let library = LibrarySnapshot(albums: try (0..<3).map { try Album(id: AlbumID("lib-\($0)"), title: "Library \($0)", artist: "L") })
        let batch = StageBatch(library: library, options: ImportOptions(onDuplicate: .skip), hub: NotificationHub(), albumCount: 6_003)
        try await ScratchFolder.$current.withValue(folder.url) {
            var stage = DedupeStage()
            try await stage.begin(batch)
            let padding = String(repeating: "ü", count: 60)
            for index in 0..<6_000 {
                let record = AlbumRecord(id: AlbumID("new-\(index)"), title: "Title \(index) \(padding)", artist: "Artist \(index)", year: "2001")
                guard case .pass = try await stage.process(ImportItem(record: record, label: "#\(index)", input: "in.json")) else {
                    Issue.record("album \(index) was not passed")
                    return
                }
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "the scratch file has no name")
            let byKey = ImportItem(record: AlbumRecord(title: "TITLE 10 \(padding.uppercased())", artist: "artist 10", year: "2001"), label: "#a", input: "in.json")
            let byID = ImportItem(record: AlbumRecord(id: "new-20", title: "Other", artist: "Other"), label: "#b", input: "in.json")
            let ofLibrary = ImportItem(record: AlbumRecord(id: "lib-1", title: "Other", artist: "Other"), label: "#c", input: "in.json")
            var reasons: [String] = []
            for item in [byKey, byID, ofLibrary] {
                if case .duplicate(let reason) = try await stage.process(item) { reasons.append(reason) }
            }
            #expect(reasons == [
                "duplicate of an earlier album of this import, 'Title 10 \(padding)' by Artist 10 (id new-10)",
                "duplicate of an earlier album of this import, 'Title 20 \(padding)' by Artist 20 (id new-20)",
                "duplicate of the library's 'Library 1' by L (id lib-1)",
            ])
        }
    }

    /// The table holds what a dictionary holds, through every growth: each fingerprint's
    /// latest place, nothing for one never held.
    @Test func aFingerprintTableHoldsWhatADictionaryHolds() {
        var table = FingerprintTable()
        var expected: [TextFingerprint: UInt32] = [:]
        for index in 0..<120_000 {
            let key = TextFingerprint("text \(index % 100_000)")
            table[key] = UInt32(index)
            expected[key] = UInt32(index)
        }
        #expect(table.count == expected.count)
        #expect(expected.allSatisfy { table[$0.key] == $0.value })
        #expect((100_000..<101_000).allSatisfy { table[TextFingerprint("text \($0)")] == nil })
    }
}
