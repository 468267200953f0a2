import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// Errors say what failed with the right kind (DESIGN 14), through the constructors every
/// module uses.
@Suite struct ErrorKindTests {
    /// A cover the store lacks is a missing cover, not a missing album.
    @Test func aCoverTheStoreLacksIsAMissingCover() async throws {
        let folder = try TemporaryFolder("error-kinds")
        defer { folder.remove() }
        let fetcher = BundleCoverFetcher(store: DirectoryCoverStore(folder: folder.url))
        let reference = "covers/" + String(repeating: "ab", count: 32) + ".png"
        let error = await #expect(throws: AlbumKitError.self) {
            try await fetcher.fetch(CoverFetchRequest(reference: reference, maxBytes: 1 << 20))
        }
        #expect(error?.kind == .noSuchCover)
        #expect(error?.description == "\(reference): the bundle that named this cover did not carry it")
    }

    /// The system's refusal, in its own words, the same from every module.
    @Test func aFileSystemErrorSaysWhatTheSystemSaid() {
        let error = AlbumKitError.fileSystem("/x/covers", "open", errno: ENOENT)
        #expect(error.kind == .fileSystem && error.description == "/x/covers: cannot open: No such file or directory")
    }
}
