import AlbumKit
import Foundation
import SourceSupport

/// The `kodi` album source: a folder tree holding Kodi's `album.nfo` files (Kodi's library
/// export "to separate files", or nfo files kept beside the music), or one `album.nfo`, one
/// album per file (SPEC 9).
public struct KodiSource: AlbumSource {
    /// How deep `match` looks into a folder for an `album.nfo`, and how many entries it reads.
    private static let matchDepth = 3
    private static let matchEntries = 2000

    public init() {}

    public var name: String { "kodi" }
    public var summary: String { "Kodi album.nfo files in a folder tree" }
    /// Files another tool wrote: records that cannot be albums are skipped and reported.
    public var readsOtherToolsFiles: Bool { true }

    /// Specific for a folder with an `album.nfo` near its top, or an `album.nfo` itself.
    public func match(_ input: SourceInput) -> SourceMatch {
        guard input.isFolder else {
            return KodiFolderWalk.isAlbumNFO(input.name) && String(decoding: input.prefix, as: UTF8.self).lowercased().contains("<album") ? .specific : .none
        }
        var walk = KodiFolderWalk(root: input.url, maxDepth: Self.matchDepth)
        for _ in 0..<Self.matchEntries {
            guard let step = walk.nextEntry() else { return .none }
            if case .nfo = step { return .specific }
        }
        return .none
    }

    public func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
        let url = input.url
        let isFolder = input.isFolder
        return pulledItems { KodiTreeReader(url, isFolder: isFolder, context: context) }
    }
}

/// Hands out one album per `album.nfo` as the walk meets them (after its cover, when a picture
/// lies beside it), and a warning for each `album.nfo` that is a link (not followed).
struct KodiTreeReader: SourceItemReader {
    private var walk: KodiFolderWalk?
    private var single: URL?
    /// Pictures are read in the input and under `covers.fileRoots`.
    private let roots: FileRoots
    private let maxCoverBytes: Int64
    private var outbox: [SourceItem] = []

    init(_ url: URL, isFolder: Bool, context: SourceContext) {
        if isFolder { walk = KodiFolderWalk(root: url, maxDepth: 64) } else { single = url }
        roots = FileRoots(context.fileRoots.paths + [(isFolder ? url : url.deletingLastPathComponent()).path])
        maxCoverBytes = context.limits.coverBytes
    }

    mutating func next() throws -> SourceItem? {
        if !outbox.isEmpty { return outbox.removeFirst() }
        if let file = single {
            single = nil
            outbox = try album(in: file)
            return outbox.removeFirst()
        }
        while let step = walk?.nextEntry() {
            switch step {
            case .nfo(let file):
                outbox = try album(in: file)
                return outbox.removeFirst()
            case .link(let path): return .warning("\(path): a link; not followed")
            case .other: continue
            }
        }
        return nil
    }

    /// The album of `file`: a picture beside it (`folder.jpg`, as Kodi and `export --format
    /// kodi` keep it) is its cover, else its `<thumb>` URL.
    private func album(in file: URL) throws -> [SourceItem] {
        let nfo = try KodiAlbumNFO(file)
        let label: AlbumLabel = "\(file.path) '\(nfo.record.title.prefix(80))'"
        let picture = CoverImage.beside(file.deletingLastPathComponent(), roots: roots, maxBytes: maxCoverBytes, for: nfo.record.title)
        return SourceItem.album(nfo.record, label: label, cover: picture)
    }
}
