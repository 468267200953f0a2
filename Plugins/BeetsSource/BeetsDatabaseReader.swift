import AlbumKit
import Foundation
import SourceSupport

/// Reads a beets database page by page (each page its own short read transaction, so no
/// lock is held while the import works through it) and hands out each album after its cover.
struct BeetsDatabaseReader: SourceItemReader {
    private static var pageSize: Int { 200 }

    private let database: BeetsDatabase
    private let context: SourceContext
    /// Art may be read under `covers.fileRoots` and in the database's own folder.
    private let roots: FileRoots
    private var page: [(id: Int64, album: BeetsAlbum)] = []
    private var lastID: Int64 = .min
    private var exhausted = false
    private var finished = false
    private var outbox: [SourceItem] = []

    init(_ url: URL, context: SourceContext) throws(AlbumKitError) {
        database = try BeetsDatabase(url)
        self.context = context
        roots = FileRoots(context.fileRoots.paths + [url.deletingLastPathComponent().path])
    }

    mutating func next() throws -> SourceItem? {
        if !outbox.isEmpty { return outbox.removeFirst() }
        if page.isEmpty {
            guard !exhausted else { return try finish() }
            page = try database.albums(after: lastID, limit: Self.pageSize)
            exhausted = page.count < Self.pageSize
            guard let last = page.last else { return try finish() }
            lastID = last.id
            page.reverse()
        }
        let (id, album) = page.removeLast()
        let label: AlbumLabel = "\(database.path) album id \(id) '\(album.album.prefix(80))'"
        let record: AlbumRecord
        do {
            record = try album.record()
        } catch {
            return .invalid(album.partialRecord, label: label, reason: error.message)
        }
        let cover = album.cover(musicDirectory: database.musicDirectory, roots: roots, maxBytes: context.limits.coverBytes)
        outbox = SourceItem.album(record, label: label, cover: cover)
        return outbox.removeFirst()
    }

    /// After the last album: a warning naming the items in no album, which are not imported.
    private mutating func finish() throws(AlbumKitError) -> SourceItem? {
        guard !finished else { return nil }
        finished = true
        let singletons = try database.singletonCount()
        guard singletons > 0 else { return nil }
        return .warning("\(database.path): \(singletons) item\(singletons == 1 ? "" : "s") in no album (beets singletons) not imported")
    }
}
