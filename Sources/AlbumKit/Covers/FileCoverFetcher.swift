import Foundation

/// `file`: `file://` references, read only when the file — after following every link —
/// lies under one of `covers.fileRoots` (see ``FileRoots``).
public struct FileCoverFetcher: CoverFetcher {
    /// Folders files may be read from.
    public let roots: FileRoots

    public init(roots: [String]) { self.roots = FileRoots(roots) }

    public var name: String { "file" }

    public func fetch(_ request: CoverFetchRequest) async throws -> Data? {
        guard request.reference.lowercased().hasPrefix("file://"), let url = URL(string: request.reference), url.isFileURL else {
            return nil
        }
        return try roots.read(url, maxBytes: request.maxBytes, reference: request.reference)
    }
}

extension CoverFetcherFactory {
    /// `file`: local files under `covers.fileRoots`.
    public static let fileCovers = CoverFetcherFactory(name: "file", summary: "file:// covers under covers.fileRoots") {
        FileCoverFetcher(roots: $0.configuration.covers.fileRoots)
    }
}
