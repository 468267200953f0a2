import AlbumKit
import Foundation
import SourceSupport

/// The `itunes` album source: an iTunes or Apple Music library exported as `Library.xml`
/// (File › Library › Export Library), its tracks grouped into albums (SPEC 9).
///
/// The file is read as a stream (see ``XMLReader``): one chunk of it, plus the albums read so
/// far with their tracks (what the import keeps anyway), is in memory at a time. Albums are
/// handed out when the file has been read to its end, since an album's tracks may lie anywhere
/// in it.
public struct ITunesSource: AlbumSource {
    /// Top-level keys only an iTunes library has; `plistlib` sorts keys, so `Tracks` itself
    /// may come after a long `Playlists` and lie beyond the first bytes.
    private static let ownKeys = ["Tracks", "Library Persistent ID", "Music Folder", "Application Version"].map { "<key>\($0)</key>" }

    public init() {}

    public var name: String { "itunes" }
    public var summary: String { "iTunes / Apple Music Library.xml: tracks grouped into albums" }
    /// Files another tool wrote: records that cannot be albums are skipped and reported.
    public var readsOtherToolsFiles: Bool { true }

    /// Specific for an XML property list whose first bytes hold one of iTunes's own keys.
    public func match(_ input: SourceInput) -> SourceMatch {
        guard !input.isFolder else { return .none }
        let head = String(decoding: input.prefix, as: UTF8.self)
        guard head.contains("<plist") else { return .none }
        return Self.ownKeys.contains(where: head.contains) ? .specific : .none
    }

    public func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
        let url = input.url
        return pulledItems { try ITunesLibraryReader(url, context: context) }
    }
}
