import Foundation

/// `bundle`: bundle-relative references (`covers/<sha256>.<ext>`) — the bytes came with an
/// imported bundle and sit in the library's store; a reference the store lacks is missing.
public struct BundleCoverFetcher: CoverFetcher {
    public let store: any CoverStore

    public init(store: any CoverStore) { self.store = store }

    public var name: String { "bundle" }

    public func fetch(_ request: CoverFetchRequest) async throws -> Data? {
        guard CoverReference.isInFolder(request.reference) else { return nil }
        guard let key = CoverKey(fileName: request.reference), let bytes = try await store.data(for: key) else {
            throw AlbumKitError.noSuchCover(request.reference, "the bundle that named this cover did not carry it")
        }
        return bytes
    }
}

extension CoverFetcherFactory {
    /// `bundle`: covers that came inside imported bundles.
    public static let bundleCovers = CoverFetcherFactory(name: "bundle", summary: "covers/<sha256> paths that came inside a bundle") {
        BundleCoverFetcher(store: $0.store)
    }
}
