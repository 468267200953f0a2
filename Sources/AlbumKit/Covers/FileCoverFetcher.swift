import Foundation

/// `file`: `file://` references, read only when the file — after following every link —
/// lies under one of `covers.fileRoots`. An imported bundle can name `file:///etc/passwd`;
/// with no root configured nothing is ever read.
public struct FileCoverFetcher: CoverFetcher {
    /// Folders files may be read from, as real paths.
    public let roots: [String]

    public init(roots: [String]) {
        self.roots = roots.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path }
    }

    public var name: String { "file" }

    public func fetch(_ request: CoverFetchRequest) async throws -> Data? {
        guard request.reference.lowercased().hasPrefix("file://"), let url = URL(string: request.reference), url.isFileURL else {
            return nil
        }
        let real = url.resolvingSymlinksInPath().standardizedFileURL.path
        guard roots.contains(where: { real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            throw AlbumKitError(.unsupported, "\(request.reference): not under any of covers.fileRoots (\(roots.isEmpty ? "none configured" : roots.joined(separator: ", "))); not read")
        }
        guard let handle = FileHandle(forReadingAtPath: real) else {
            throw AlbumKitError(.fileSystem, "\(request.reference): cannot be read")
        }
        defer { try? handle.close() }
        let bytes = try handle.read(upToCount: request.maxBytes + 1) ?? Data()
        guard bytes.count <= request.maxBytes else {
            throw AlbumKitError(.limitExceeded, "\(request.reference): larger than covers.maxBytes (\(request.maxBytes) bytes)")
        }
        return bytes
    }
}

extension CoverFetcherFactory {
    /// `file`: local files under `covers.fileRoots`.
    public static let fileCovers = CoverFetcherFactory(name: "file", summary: "file:// covers under covers.fileRoots") {
        FileCoverFetcher(roots: $0.configuration.covers.fileRoots)
    }
}
