import AlbumKit
import Foundation

/// Every call `serve` makes into the core, in one file: routes, the watcher and the cover
/// service go through here, and only through the ``Library`` door. Changes run one at a time
/// (``Gate``). Reads ask the library as it is: a database backend answers a page with point
/// reads of its range and one lookup of its covers, so nothing here copies the library and no
/// change reads it whole again (a file backend holds its own copy, as a command does); what
/// pages showed, searched or not, is kept as JSON for the library's revision
/// (``AlbumJSONCache``). Pages are read a few at a time, within the connections the store
/// keeps open; a query or a sort, which may list the whole library, one at a time, so that
/// they bound memory and leave the pages their places.
final class LibraryGateway: Sendable {
    private let library: Library
    private let gate = Gate(places: 1)
    private let pages = Gate(places: 3)
    private let listings = Gate(places: 1)
    private let written = AlbumJSONCache()

    /// A gateway to the opened `library`.
    init(library: Library) {
        self.library = library
    }

    /// Where the library's events go.
    var hub: NotificationHub { library.hub }
    /// Where the library lives, for messages and for watching.
    var location: String { library.location }
    /// The backend's feed of other writers' saves, when it has one (``LibraryWatcher``).
    var changeFeed: (any StorageChangeFeed)? { library.changeFeed }
    /// The backend's notices between processes and hosts, when it carries them (``CoverRequestRelay``).
    var notices: (any StorageNotices)? { library.notices }
    /// The reading limits uploads are held to.
    var limits: Limits { library.configuration.limits }
    /// The library folder: uploads and exports are written inside it.
    var folder: URL { library.configuration.libraryDirectory }

    // MARK: Reads

    /// `limit` albums from `offset` of those `query` matches in `order` (see
    /// ``Library/page(matching:order:offset:limit:)``), written out. A page kept for the
    /// library's revision (``AlbumJSONCache``) costs one read of the revision, a search's page
    /// too: it is looked for beside the plain pages, not behind a search of another query.
    func page(matching query: AlbumQuery, order: AlbumSort, offset: Int, limit: Int) async throws -> WrittenPage {
        let request = PageRequest(query: query, order: order, offset: offset, limit: limit)
        let read = { WrittenPage(try await self.library.page(matching: query, order: order, offset: offset, limit: limit)) }
        guard !request.isPlain else { return try await pages.run { try await kept(request, else: read) } }
        if let page = try await pages.run({ try await kept(request) }) { return page }
        // Asked again once a listing's place is free: the listing before may have kept it.
        return try await listings.run { try await kept(request, else: read) }
    }

    /// The page `request` asks for as kept for the library's revision, nil when it is not.
    private func kept(_ request: PageRequest) async throws -> WrittenPage? {
        let current = await self.current
        guard let revision = try await library.revision() else { return nil }
        return written.page(request, at: revision, current: current)
    }

    /// The page `request` asks for as kept for the library's revision, else the page `read`
    /// reads, kept unless a save came between the reads (revisions only grow). Backends
    /// without a revision keep nothing.
    private func kept(_ request: PageRequest, else read: () async throws -> WrittenPage) async throws -> WrittenPage {
        let current = await self.current
        guard let revision = try await library.revision() else { return try await read() }
        if let page = written.page(request, at: revision, current: current) { return page }
        let page = try await read()
        if try await library.revision() == revision { written.keep(page, for: request, at: revision) }
        return page
    }

    /// The album `reference` names, with its position and cover.
    func album(_ reference: AlbumReference) async throws -> AlbumPage.Entry {
        try await pages.run {
            let (album, position) = try await library.album(reference)
            return await library.entries([album], from: position)[0]
        }
    }

    /// The current album's id, if there is one.
    var current: AlbumID? { get async { await library.memento.current } }

    /// The current album's entry, nil when there is none. Read between this server's changes:
    /// a removal stores the albums before the library's memento names the next current album,
    /// and a read in between would find the current album gone. A process elsewhere can still
    /// remove it between the two reads (another album is then current): the read is made again.
    func currentEntry() async throws -> AlbumPage.Entry? {
        try await gate.run {
            while let id = await current {
                do {
                    return try await album(.id(id))
                } catch let error as AlbumKitError where error.kind == .noSuchAlbum {
                    if await current == id { throw error }
                }
            }
            return nil
        }
    }

    /// What `undo` and `redo` would take back or apply again (nil when there is nothing).
    var history: (undo: String?, redo: String?) {
        get async {
            let memento = await library.memento
            return (memento.undo.last?.label, memento.redo.last?.label)
        }
    }

    /// The stored cover whose SHA-256 is `sha256` (64 lower-case hex digits, checked by the
    /// caller), with its key; nil when the store has none.
    func coverBytes(sha256: String) async throws -> (key: CoverKey, bytes: Data)? {
        for kind in ImageKind.allCases {
            let key = CoverKey(sha256: sha256, fileExtension: kind.fileExtension)
            if let bytes = try await library.coverBytes(key) { return (key, bytes) }
        }
        return nil
    }

    // MARK: Changes

    /// Adds `record` at `position` (default: the end).
    func add(_ record: AlbumRecord, at position: Int?) async throws -> Album {
        try await change { try await $0.add(record, at: position).album }
    }

    /// Changes the fields `patch` names.
    func update(_ reference: AlbumReference, _ patch: AlbumPatch) async throws -> Album {
        try await change { try await $0.update(reference, patch) }
    }

    /// Removes one album (an undoable step).
    func remove(_ reference: AlbumReference) async throws -> Album {
        try await change { try await $0.remove([reference])[0] }
    }

    /// Moves one album to `position`.
    func move(_ reference: AlbumReference, to position: Int) async throws {
        try await change { try await $0.move(reference, to: position) }
    }

    /// Makes an album current (the memento; not a step of history).
    func select(_ reference: AlbumReference) async throws -> Album {
        try await change { try await $0.select(reference) }
    }

    /// Takes back (or, `forward`, applies again) one step of history; returns its label and
    /// the albums the walk brought back, changed or moved, in the order it touched them (what
    /// the page selects after an undo).
    func walkHistory(forward: Bool) async throws -> (label: String, albums: [AlbumID]) {
        let step = try await change { forward ? try await $0.redo() : try await $0.undo() }
        let applied = forward ? step.edits : step.inverse.edits
        return (step.label, applied.compactMap { edit in
            switch edit {
            case .insert(let album, _): album.id
            case .update(_, let after): after.id
            case .move(let id, _, _): id
            case .remove: nil
            }
        })
    }

    /// Imports `file` exactly as `albumkit import FILE` would (one undoable step).
    func importFile(_ file: URL, policy: DuplicatePolicy) async throws -> ImportSummary {
        try await change { try await $0.importAlbums(from: [file], options: ImportOptions(onDuplicate: policy)).report.summary }
    }

    /// Writes a backup bundle of the library to `file` (`.tar.gz`); returns its album count.
    func exportBundle(to file: URL) async throws -> Int {
        // Under the gate, so the bundle is one state of the library and its covers.
        try await gate.run { try await library.export(to: file, replacing: true).albums }
    }

    /// Adopts what another process saved, if anything; returns whether the library changed.
    func reloadIfChanged() async throws -> Bool {
        try await change { try await $0.reloadIfChanged() }
    }

    /// Looks covers up, as `albumkit covers fetch ID…` does, for the albums `ids` names that
    /// name no cover (only the lookup services of `covers.fetchers` can find one for them):
    /// beside other changes, as another process's `covers fetch` would run, its
    /// `cover.requested`, `cover.fetched` and `cover.failed` on the hub as they happen.
    func findCovers(_ ids: [AlbumID]) async throws -> CoverFetchSummary {
        var coverless: [AlbumReference] = []
        for id in ids where try await library.album(.id(id)).album.coverUrl == nil { coverless.append(.id(id)) }
        return try await library.fetchCovers(of: coverless)
    }

    /// A cover service for this library through its fetcher chain; the caller attaches it to
    /// the hub and finishes it when serving ends.
    func makeCoverService() async throws -> CoverService { try await library.makeCoverService() }

    /// Runs `body` after every earlier change.
    private func change<T>(_ body: (Library) async throws -> T) async throws -> T {
        try await gate.run { try await body(library) }
    }
}
