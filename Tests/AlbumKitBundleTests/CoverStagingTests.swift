@testable import AlbumKit
@testable import AlbumKitBundle
import Foundation
import Synchronization
import Testing

/// An import stages each cover once, however many of its inputs carry it: the staging keeps no
/// record of its own, and the import asks the covers it has carried so far.
@Suite struct CoverStagingTests {
    /// A cover store that takes covers in batches, as a database does, noting every cover it is
    /// handed before passing the batch to a real folder store.
    final class HandedCovers: CoverStore {
        let store: DirectoryCoverStore
        let handed = Mutex<[CoverKey]>([])

        init(folder: URL) { store = DirectoryCoverStore(folder: folder) }

        func insert(_ covers: [(key: CoverKey, bytes: Data)]) async throws -> [CoverKey] {
            handed.withLock { $0 += covers.map(\.key) }
            return try await store.insert(covers)
        }

        func put(_ bytes: Data, fileExtension: String) async throws -> CoverKey { try await store.put(bytes, fileExtension: fileExtension) }
        func data(for key: CoverKey) async throws -> Data? { try await store.data(for: key) }
        func contains(_ key: CoverKey) async throws -> Bool { try await store.contains(key) }
        func keys() async throws -> [CoverKey] { try await store.keys() }
        func remove(_ key: CoverKey) async throws -> Int { try await store.remove(key) }
    }

    /// Two bundles written from one library carry its cover; reading both hands it to the
    /// store once, and both inputs' albums find it.
    @Test func aCoverTwoInputsCarryIsStagedOnce() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await LibraryFixture.make(in: workspace).library
        let bundles = [workspace.path("one.tar"), workspace.path("two.tar")]
        for bundle in bundles {
            try await BundleWriter(compression: .none, generator: "test").write(library.contents(of: try await library.snapshot()), to: bundle)
        }
        let cover = try #require(try await library.storage.covers.keys().first)

        let store = HandedCovers(folder: workspace.path("store"))
        var staging: CoverStaging? = CoverStaging(parent: workspace.path("parent"), store: store)
        let reader = InputReader(registry: testRegistry(), configuration: Configuration(environment: [:]), hub: NotificationHub())
        let (_, contents) = try await reader.read(bundles, staging: &staging)
        let added = try await staging?.commit()

        #expect(contents.coversRead == 2)
        #expect(store.handed.withLock { $0 } == [cover])
        #expect(added == [cover])
        #expect(contents.covers[cover.bundlePath]?.key == cover)
        #expect(try await store.data(for: cover) == Data("existing cover".utf8))
    }
}
