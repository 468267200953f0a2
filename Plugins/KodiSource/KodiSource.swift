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
        return pulledItems { KodiTreeReader(url, isFolder: isFolder) }
    }
}

/// Hands out one album per `album.nfo` as the walk meets them, and a warning for each
/// `album.nfo` that is a link (not followed).
struct KodiTreeReader: SourceItemReader {
    private var walk: KodiFolderWalk?
    private var single: URL?

    init(_ url: URL, isFolder: Bool) {
        if isFolder { walk = KodiFolderWalk(root: url, maxDepth: 64) } else { single = url }
    }

    mutating func next() throws -> SourceItem? {
        if let file = single {
            single = nil
            return try album(in: file)
        }
        while let step = walk?.nextEntry() {
            switch step {
            case .nfo(let file): return try album(in: file)
            case .link(let path): return .warning("\(path): a link; not followed")
            case .other: continue
            }
        }
        return nil
    }

    private func album(in file: URL) throws -> SourceItem {
        let nfo = try KodiAlbumNFO(file)
        return .album(nfo.record, label: "\(file.path) '\(nfo.record.title.prefix(80))'")
    }
}
