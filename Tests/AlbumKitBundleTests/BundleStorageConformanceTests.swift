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
}
