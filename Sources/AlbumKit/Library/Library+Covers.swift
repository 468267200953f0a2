import Foundation

/// The library's side of covers: which references still need fetching, the state of each
/// album's cover, the memento's reference → cover mapping, fetching, and pruning the store.
extension Library {
    /// `cover.requested` for each album these edits bring in or change whose cover
    /// reference is neither stored with the library nor resolved in the memento.
    static func coverRequests(for edits: [LibraryEdit], state: LibraryState) -> [LibraryEvent] {
        edits.compactMap { edit in
            let album: Album
            switch edit {
            case .insert(let inserted, _): album = inserted
            case .update(let before, let after) where before.coverUrl != after.coverUrl: album = after
            default: return nil
            }
            guard let reference = album.coverUrl, !CoverReference.isInFolder(reference), state.covers[reference]?.key == nil else {
                return nil
            }
            return .coverRequested(album.id, reference: reference)
        }
    }

    /// How `album`'s cover stands: stored with the library, missing (not fetched yet, or
    /// gone from the store), failed (the last fetch failed), or none.
    public func coverState(of album: Album) async -> CoverState {
        let (state, key) = CoverState.judged(album, resolutions: memento.covers)
        guard let key else { return state }
        return (try? await storage.covers.contains(key)) == true ? .stored : .missing
    }

    /// Why the last fetch of `album`'s cover failed, when its cover is ``CoverState/failed``.
    /// A name in the covers folder is stored or missing, never failed (SPEC 3: a cover its
    /// bundle lacks is missing), whatever a fetch of it recorded in the memento.
    public func coverFailure(of album: Album) -> String? {
        // Judged first: a stored cover's name makes no string there (a listing asks about every album).
        guard CoverState.judged(album, resolutions: memento.covers).state == .failed, let reference = album.coverUrl else { return nil }
        return memento.covers[reference]?.failure
    }

    /// The stored cover of `album`, if its bytes are in the store.
    public func storedCover(of album: Album) async -> CoverKey? {
        guard let key = coverKey(of: album), (try? await storage.covers.contains(key)) == true else { return nil }
        return key
    }

    /// The key `album`'s cover is stored under when it is stored (a listed album judged
    /// ``CoverState/stored`` has it in the store), asking the store nothing.
    public func coverKey(of album: Album) -> CoverKey? {
        CoverState.judged(album, resolutions: memento.covers).key
    }

    /// The bytes of the stored cover `key`, or nil when the library does not store it.
    public func coverBytes(_ key: CoverKey) async throws -> Data? { try await storage.covers.data(for: key) }

    /// Where a person finds the stored cover `key` (a file path, a table row), if anywhere.
    public nonisolated func coverLocation(_ key: CoverKey) -> String? { storage.covers.location(of: key) }

    /// Every stored cover's key.
    public func storedCoverKeys() async throws -> [CoverKey] { try await storage.covers.keys() }

    /// Fetches the covers of `albums` (default: every album whose cover is not stored;
    /// `all`: every album with a cover reference, stored ones are not fetched again) through
    /// `covers.fetchers`; each result is recorded as it lands. An album that names no cover is
    /// asked for too when a fetcher of the chain finds covers by album (a lookup service).
    /// `offline`: no fetcher is asked; covers come only from the store and from what the
    /// lookup services answered before. Returns what happened.
    public func fetchCovers(of references: [AlbumReference]? = nil, all: Bool = false, offline: Bool = false) async throws -> CoverFetchSummary {
        // Other processes (`serve`) learn of each request meanwhile (``CoverFetchNotices``).
        try await announcingCoverEvents {
            let service = try makeCoverService(offline: offline)
            LeftoverFiles.sweepCovers(of: storage.covers)
            func request(_ album: Album, at position: Int) {
                guard album.coverUrl != nil || service.findsByAlbum else { return }
                hub.publish(.coverRequested(album.id, reference: album.coverUrl ?? ""))
                service.request(album, position: position)
            }
            if let references {
                var chosen: [(album: Album, position: Int)] = []
                for reference in references { chosen.append(try await album(reference)) }
                for (album, position) in chosen { request(album, at: position) }
            } else {
                // Listed a run at a time (their covers judged with one look at the store), each
                // album asked for as it comes: the whole library is never held.
                for try await page in listedPages() {
                    for listed in page where all || listed.cover != .stored {
                        request(listed.album, at: listed.position)
                    }
                }
            }
            return try await service.finish()
        }
    }

    /// Writes what the cover lookups found (``AlbumFindings``) into the albums, as one step of
    /// history labelled `label`: each album read by its id under the lock, first at the
    /// position (0-based) `positions` says it was seen at, so that a library that reads by
    /// points reads the albums found, not the whole library.
    func write(_ found: [AlbumID: AlbumFindings], near positions: [AlbumID: Int], label: String) async throws {
        try await change { albums, plan in
            var edits: [LibraryEdit] = []
            for (id, findings) in found.sorted(by: { positions[$0.key] ?? -1 < positions[$1.key] ?? -1 }) {
                guard let (_, album) = try await albums.album(withID: id, near: positions[id] ?? -1),
                    let changed = findings.applied(to: album)
                else { continue }
                edits.append(.update(before: album, after: changed))
            }
            plan.record(label, edits)
        }
    }

    /// Runs `body` with a cover service answering every `cover.requested` on the hub, then
    /// waits for every fetch it started and returns what `body` returned and what happened.
    /// Other processes (`serve`) learn of each request meanwhile (``CoverFetchNotices``).
    public func fetchingCovers<Result>(_ body: () async throws -> Result) async throws -> (result: Result, covers: CoverFetchSummary) {
        try await announcingCoverEvents {
            let service = try makeCoverService()
            LeftoverFiles.sweepCovers(of: storage.covers)
            let subscription = service.attach()
            defer { subscription.cancel() }
            let result: Result
            do {
                result = try await body()
            } catch {
                _ = try? await service.finish()
                throw error
            }
            return (result, try await service.finish())
        }
    }

    /// Passes the cover events of the hub on to the other hosts over the same storage until
    /// the announcement ends: `serve` fetches the covers its page's changes name, and the
    /// pages of every other host then show those spinners too. Nil when the storage carries
    /// no notices (a library folder: the processes sharing it are one machine's commands,
    /// which announce their own fetches, and a file kept for the server's whole life would
    /// only grow).
    public nonisolated func announcingCoverEventsToOtherHosts() -> CoverFetchNotices.Announcement? {
        guard let notices else { return nil }
        return CoverFetchNotices.Announcement(libraryDirectory: configuration.libraryDirectory, notices: notices, hub: hub)
    }

    /// Runs `body` with the hub's cover events passed on to other processes and hosts
    /// (``CoverFetchNotices``), every one of them gone out when it returns.
    private func announcingCoverEvents<T>(_ body: () async throws -> T) async throws -> T {
        let announcement = CoverFetchNotices.Announcement(libraryDirectory: configuration.libraryDirectory, notices: notices, hub: hub)
        do {
            let result = try await body()
            await announcement?.end()
            return result
        } catch {
            await announcement?.end()
            throw error
        }
    }

    /// A cover service for this library, with the fetcher chain `covers.fetchers` names;
    /// `offline`: one that asks no fetcher.
    public func makeCoverService(offline: Bool = false) throws -> CoverService {
        let fetchers = try registry.makeCoverFetchers(CoverFetcherContext(configuration: configuration, store: storage.covers))
        return CoverService(
            library: self, fetchers: fetchers, covers: configuration.covers, retryAfterDays: configuration.lookups.retryAfterDays, offline: offline)
    }

    /// Drops stored covers and memento entries that no album uses — neither in the library
    /// nor in its undo/redo history, so an undo never brings back an album without its cover.
    /// Returns how many covers were removed and the bytes freed.
    public func pruneCovers() async throws -> (removed: Int, bytes: Int) {
        LeftoverFiles.sweepCovers(of: storage.covers)
        let keep = try await change { albums, plan in
            var references = Set(try await albums.albums(in: 0..<(try await albums.count())).compactMap(\.coverUrl))
            for step in try await plan.writer.steps(plan.state.stepIDs).values {
                for edit in step.edits { references.formUnion(Self.albums(in: edit).compactMap(\.coverUrl)) }
            }
            let kept = plan.state.covers.filter { references.contains($0.key) }
            if kept != plan.state.covers { plan.replaceCovers(with: kept) }
            return Set(references.compactMap(CoverKey.init(fileName:)) + kept.values.compactMap(\.key))
        }
        var removed = 0
        var bytes = 0
        for key in try await storage.covers.keys() where !keep.contains(key) {
            bytes += try await storage.covers.remove(key)
            removed += 1
        }
        return (removed, bytes)
    }

    private static func albums(in edit: LibraryEdit) -> [Album] {
        switch edit {
        case .insert(let album, _), .remove(let album, _): [album]
        case .update(let before, let after): [before, after]
        case .move: []
        }
    }
}

/// An album's cover as `list` shows it.
public enum CoverState: String, Sendable, Codable {
    case stored, missing, failed, none
}
