import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import SQLiteStorage
import Testing

/// An export of a SQLite library reads its covers in the order the table keeps them (the order
/// they were added), each by its row, so that every page of the table is read once
/// (``CoverKeysInStoredOrder``); a cover that is no longer at the row it was listed at is read
/// as missing, never as the cover that took its row.
@Suite struct CoverStoredOrderTests {
    /// A SQLite library in `folder` with no albums and the covers `covers`, added in that order.
    private func storage(with covers: [Data], in folder: TemporaryFolder) async throws -> (SQLiteStorage, [CoverKey]) {
        let storage = SQLiteStorage(file: folder.path("library.sqlite"))
        try await storage.create()
        let keyed = covers.map { (key: CoverKey(bytes: $0, fileExtension: "jpg"), bytes: $0) }
        #expect(try await storage.covers.insert(keyed) == keyed.map(\.key))
        return (storage, keyed.map(\.key))
    }

    @Test func aBundleHoldsTheCoversInTheOrderTheyWereAdded() async throws {
        let folder = try TemporaryFolder("cover-stored-order")
        defer { folder.remove() }
        let (storage, added) = try await storage(with: (0..<40).map { Data("cover \($0)".utf8) }, in: folder)
        try #require(added != added.sorted(), "the digests' order is not the order they were added in")

        let bundle = folder.path("backup.tar.zst")
        try await BundleWriter(compression: .zstd, generator: "test").write(ExportContents(storage: storage, generator: "test"), to: bundle)
        let entries = try runProgram("/bin/tar", ["--zstd", "-tf", bundle.path]).output.split(separator: "\n").map(String.init)
        #expect(entries == ["manifest.json", "albums.json", "state.json"] + added.map(\.bundlePath) + ["checksums.sha256"])
        try FileManager.default.createDirectory(at: folder.path("unpacked"), withIntermediateDirectories: false)
        #expect(try runProgram("/bin/tar", ["--zstd", "-xf", bundle.path, "-C", folder.path("unpacked").path]).status == 0)
        let check = try runProgram("/usr/bin/sha256sum", ["-c", "--strict", "checksums.sha256"], in: folder.path("unpacked"))
        #expect(check.status == 0, "\(check.output)")
        #expect(try await BundleVerifier.problems(in: bundle, limits: Limits()).isEmpty)
    }

    /// Covers removed after the listing, another added: each cover read is the one listed. The
    /// last row removed, SQLite gives its `rowid` to the newcomer, which must not be read in its
    /// place.
    @Test func aCoverNoLongerAtItsRowIsReadAsMissing() async throws {
        let folder = try TemporaryFolder("cover-stored-places")
        defer { folder.remove() }
        let (storage, added) = try await storage(with: (0..<5).map { Data("cover \($0)".utf8) }, in: folder)
        let store = try #require(storage.covers as? any CoverKeysInStoredOrder)
        let (keys, listedPlaces) = try await store.keysInStoredOrder()
        let places = try #require(listedPlaces)
        let sorted = try await storage.covers.keys()
        #expect(keys == added && Set(keys) == Set(sorted))

        #expect(try await storage.covers.remove(added[2]) > 0)
        #expect(try await storage.covers.remove(added[4]) > 0)
        let newcomer = Data("a cover added after the listing".utf8)
        _ = try await storage.covers.insert([(CoverKey(bytes: newcomer, fileExtension: "jpg"), newcomer)])
        let (_, placesNow) = try await store.keysInStoredOrder()
        try #require(placesNow?.last == places[4], "the newcomer took the last cover's row")
        let read = try await store.data(for: keys, at: places)
        #expect(read == [0, 1, nil, 3, nil].map { $0.map { Data("cover \($0)".utf8) } })
    }
}
