import AlbumKit
import AlbumKitBundle
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

    /// The source; it has no settings.
    public init() {}

    /// `audio`, for `import --format audio`.
    public var name: String { "audio" }
    /// One line for `albumkit plugins`.
    public var summary: String { "folders and archives of MP3, FLAC, Ogg Vorbis and M4A files: albums from their tags" }
    /// Files another tool wrote: records that cannot be albums are skipped and reported.
    public var readsOtherToolsFiles: Bool { true }

    /// Specific for a folder or an archive whose first entries (up to ``peekEntries``)
    /// include audio files, unless it is laid out like a bundle: a folder with a bundle's
    /// files at its top (or in its one subfolder), an archive with one before its first track.
    public func match(_ input: SourceInput) -> SourceMatch {
        if input.isFolder {
            guard !folderLooksLikeBundle(input.url) else { return .none }
            let walker = FolderWalker(root: input.url)
            for _ in 0..<Self.peekEntries {
                guard let entry = try? walker.next() else { return .none }
                if case .file(let path) = entry, AudioFormat.isAudioPath(path) { return .specific }
            }
            return .none
        }
        // Only what the bundle source would take for an archive is opened to look inside, and
        // only until the first entry that decides: a bundle's manifest comes first, an audio
        // archive's first track within a few entries, so little is ever unpacked here.
        guard BundleSource().match(input) != .none,
            let reader = try? ArchiveEntryReader(file: input.url, limits: Limits(archiveBytes: 32 << 20))
        else { return .none }
        for _ in 0..<Self.peekEntries {
            guard let entry = try? reader.next() else { return .none }
            if entry.components.count <= 2, Self.bundleFileNames.contains(entry.fileName) { return .none }
            if entry.kind == .file, AudioFormat.isAudioPath(entry.path) { return .specific }
        }
        return .none
    }

    /// The albums of the folder or archive `input`, with their covers, pulled as the consumer
    /// asks; the first problem ends the stream with an error naming the file or entry.
    public func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
        let reader = Mutex(AudioFilesReader(input: input, limits: context.limits) { () throws(AlbumKitError) -> any InputWalker in
            input.isFolder ? FolderWalker(root: input.url) : try ArchiveWalker(file: input.url, limits: context.limits)
        })
        return AsyncThrowingStream { try reader.withLock { try $0.next() } }
    }

    /// Whether `folder` holds a bundle's files, at its top or inside its one subfolder.
    private func folderLooksLikeBundle(_ folder: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        if names.contains(where: Self.bundleFileNames.contains) { return true }
        guard names.count == 1 else { return false }
        let inner = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(names[0]).path)) ?? []
        return inner.contains(where: Self.bundleFileNames.contains)
    }
}
