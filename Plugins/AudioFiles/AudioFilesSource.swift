import AlbumKit
import Foundation
import Synchronization

/// The `audio` album source (SPEC 9): a folder, or an archive, of MP3, FLAC, Ogg Vorbis and
/// M4A files, whose tags (read through TagLib) become albums — one per album artist and
/// album within a folder.
///
/// It reads only what holds tags (``TagBytesCollector``), one track at a time, and never
/// writes anything: an archive is read as a stream, never unpacked.
public struct AudioFilesSource: AlbumSource {
    /// How many entries ``match(_:)`` looks at.
    static let peekEntries = 64
    /// Files that make a folder a bundle (the `bundle` source's), not a folder of audio.
    static let bundleFileNames: Set<String> = ["albums.json", "albums.plist", "manifest.json"]

    public init() {}

    public var name: String { "audio" }
    public var summary: String { "folders and archives of MP3, FLAC, Ogg Vorbis and M4A files: albums from their tags" }

    /// Specific for a folder whose first files (up to ``peekEntries``) include audio, unless
    /// it is laid out like a bundle.
    public func match(_ input: SourceInput) -> SourceMatch {
        guard input.isFolder else { return .none }
        guard !looksLikeBundle(input.url) else { return .none }
        let walker = FolderWalker(root: input.url)
        for _ in 0..<Self.peekEntries {
            guard let entry = try? walker.next() else { return .none }
            if case .file(let path) = entry, AudioFormat.isAudioName(path) { return .specific }
        }
        return .none
    }

    public func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
        let reader = Mutex(AudioFilesReader(input: input, limits: context.limits) { () throws(AlbumKitError) -> any InputWalker in
            FolderWalker(root: input.url)
        })
        return AsyncThrowingStream { try reader.withLock { try $0.next() } }
    }

    /// Whether `folder` holds a bundle's files, at its top or inside its one subfolder.
    private func looksLikeBundle(_ folder: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        if names.contains(where: Self.bundleFileNames.contains) { return true }
        guard names.count == 1 else { return false }
        let inner = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(names[0]).path)) ?? []
        return inner.contains(where: Self.bundleFileNames.contains)
    }
}
