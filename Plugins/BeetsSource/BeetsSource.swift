import AlbumKit
import Foundation
import SourceSupport

/// The `beets` album source: a beets library database (`library.db`), opened read-only, or
/// the JSON `beet export` writes (albums with `-a`, or tracks), one album per beets album
/// (SPEC 9).
public struct BeetsSource: AlbumSource {
    public init() {}

    public var name: String { "beets" }
    public var summary: String { "beets: a library.db (read only) or beet export JSON" }
    /// Files another tool wrote: records that cannot be albums are skipped and reported.
    public var readsOtherToolsFiles: Bool { true }

    /// Specific for an SQLite file with beets's `albums` and `items` tables, and for JSON
    /// whose first object has beets's `albumartist` key.
    public func match(_ input: SourceInput) -> SourceMatch {
        guard !input.isFolder else { return .none }
        if input.prefix.starts(with: BeetsDatabase.magic) {
            return BeetsDatabase.isBeetsLibrary(input.url) ? .specific : .none
        }
        return BeetsExport.looksLikeExport(input.prefix) ? .specific : .none
    }

    public func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
        let url = input.url
        if input.prefix.starts(with: BeetsDatabase.magic) {
            return pulledItems { try BeetsDatabaseReader(url, context: context) }
        }
        return pulledItems { try BeetsExportReader(url, context: context) }
    }
}
