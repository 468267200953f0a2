import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// The backend conformance suite, run by the `bundle` backend: a plain `library.tar` (covers
/// read back by offset) and a compressed `library.tar.gz` (covers read in sequence).
@Suite struct BundleStorageConformanceTests {
    @Test(arguments: ["library.tar", "library.tar.gz"], StorageBackendCompatTest.Check.allCases)
    func conformance(_ name: String, _ check: StorageBackendCompatTest.Check) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let damage = StorageBackendCompatTest.damagingFile(workspace.path(name))
        try await StorageBackendCompatTest(damage: damage) { try BundleStorage(file: workspace.path(name), lockTimeout: $0) }.run(check)
    }

    @Test func pendingCoversAreFoldedIntoTheBundleOnSave() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let storage = try BundleStorage(file: workspace.path("library.tar"))
        try await storage.create()
        let key = try await storage.covers.put(Data("cover bytes".utf8), fileExtension: "jpg")
        let library = try await Library.open(storage, hub: NotificationHub())
        try await library.add(AlbumRecord(title: "With cover", artist: "A", coverUrl: key.bundlePath))
        #expect(Workspace.contents(of: workspace.url).keys.sorted() == ["library.tar", "library.tar.lock"])
        #expect(try await storage.covers.data(for: key) == Data("cover bytes".utf8))
        let listing = try runProgram("/bin/tar", ["-tf", workspace.path("library.tar").path])
        #expect(listing.output.contains(key.bundlePath))
    }

    /// The keys of a library's covers — those in the bundle file and those waiting beside it,
    /// one cover in both (a save killed before it cleared the folded ones) — come sorted, each once; a save folds the waiting ones in and lists
    /// the same keys.
    @Test func coverKeysMergeTheBundlesAndThePendingCovers() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let storage = try BundleStorage(file: workspace.path("library.tar"))
        try await storage.create()
        var keys: [CoverKey] = []
        for index in 0..<40 { keys.append(try await storage.covers.put(Data("first \(index)".utf8), fileExtension: index % 2 == 0 ? "jpg" : "png")) }
        let library = try await Library.open(storage, hub: NotificationHub())
        try await library.add(AlbumRecord(title: "Folds the covers in", artist: "A"))
        for index in 30..<70 {
            let bytes = Data(index < 40 ? "first \(index)".utf8 : "later \(index)".utf8)
            keys.append(try await storage.covers.put(bytes, fileExtension: index % 2 == 0 ? "jpg" : "png"))
        }
        // As a save killed before it cleared the folded covers leaves them: waiting and stored.
        try Data("first 0".utf8).write(to: workspace.path("library.tar.pending-covers").appendingPathComponent(keys[0].fileName))
        let expected = Array(Set(keys)).sorted()
        #expect(expected.count == 70)
        #expect(try await storage.covers.keys() == expected)
        try await library.add(AlbumRecord(title: "Folds the rest in", artist: "B"))
        #expect(try await storage.covers.keys() == expected)
    }
}
