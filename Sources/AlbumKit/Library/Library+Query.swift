/// The library seen through the query language: listings with cover states, references
/// resolved against the true cover store, and changes to several albums as one step.
extension Library {
    /// Every album with its position and cover state, or those `query` matches, in order.
    public func listed(matching query: AlbumQuery = .all) async throws -> [ListedAlbum] {
        var listed: [ListedAlbum] = []
        for try await page in listedPages(matching: query) { listed += page }
        return listed
    }

    /// What ``listed(matching:)`` returns, a run at a time, as the store reads the albums: a
    /// listing of a database lays out its first albums while the rest are read, and their
    /// covers are judged on the way. The albums' details hold the fields `details` names, and
    /// perhaps those the query looks at (a table of the core six needs none).
    public nonisolated func listedPages(
        matching query: AlbumQuery = .all, details: Set<AlbumField> = Set(AlbumField.all)
    ) -> AsyncThrowingStream<[ListedAlbum], any Error> {
        let (pages, listing) = AsyncThrowingStream<[ListedAlbum], any Error>.makeStream()
        let work = Task {
            do {
                try await list(matching: query, details: details, into: listing)
                listing.finish()
            } catch {
                listing.finish(throwing: error)
            }
        }
        listing.onTermination = { _ in work.cancel() }
        return pages
    }

    /// Judges the albums run by run as the store hands them over (the store reads on in the
    /// meantime), and hands each judged run to `listing`: the albums with the details `details`
    /// names and those the query looks at, but where the store checks the query on their
    /// folded text (``listSearched(_:details:into:)``).
    private func list(matching query: AlbumQuery, details shown: Set<AlbumField>, into listing: AsyncThrowingStream<[ListedAlbum], any Error>.Continuation) async throws {
        if try await listSearched(query, details: shown, into: listing) { return }
        let details = shown.union(query.details)
        if try await listScanned(query, details: details, into: listing) { return }
        // The store's keys are read while the albums load (a table's keys, a folder's names).
        async let storedKeys = Self.storedKeys(in: storage.covers)
        if let held {
            let coverState = coverStates(stored: await storedKeys)
            listing.yield(Self.judged(held, from: 0, by: coverState, matching: query))
            return
        }
        var coverState: (@Sendable (Album) -> CoverState)?
        var position = 0
        // Not bounded: the listing's consumer holds every album (the table lays them all out)
        // and its own stream is not bounded, so holding the store back would only stall its
        // read, as it did while the cover keys were read (BENCHMARKS.md, *Issue 34's rows on a
        // quiet machine (3ad2a03)*).
        for try await piece in storage.pieces(inRunsOf: Self.listingRun, details: details, ahead: nil) {
            switch piece {
            case .state(let state):
                memento = state
                coverState = coverStates(stored: await storedKeys)
            case .albums(let albums):
                guard let coverState else { throw AlbumKitError(.libraryState, "\(storage.location): the albums came before the memento") }
                listing.yield(Self.judged(albums, from: position, by: coverState, matching: query))
                position += albums.count
            }
        }
    }

    /// Hands `listing` the albums `query` matches where the store passes over, unread, those
    /// whose stored text cannot hold the query's words (``LibraryTextFieldScan``): the albums
    /// it reads are checked, their covers judged by asking the store about their keys when
    /// they are a few, else from the list of its keys. False when the store cannot (nothing
    /// handed). An album passed over is not read, so a damaged one the query cannot match
    /// does not stop the listing of the others: the rule point reads follow (`show 5` of
    /// another album succeeds). Damage is noticed when something reads the album: a query it
    /// may match, `list` with no query and `export` refuse the library as a whole load does.
    private func listScanned(_ query: AlbumQuery, details: Set<AlbumField>, into listing: AsyncThrowingStream<[ListedAlbum], any Error>.Continuation) async throws -> Bool {
        let terms = query.wordsInTextFields
        guard held == nil, !terms.isEmpty, let scan = storage.pointReads as? any LibraryTextFieldScan,
            let found = try await scan.albums(mayHolding: terms, details: details)
        else { return false }
        memento = found.state
        let listed: [ListedAlbum]
        if found.albums.count <= found.count / Self.coversAskedApart {
            listed = await listedWithCovers(found.albums)
        } else {
            let coverState = await coverStates()
            listed = found.albums.map { ListedAlbum(position: $0.position + 1, album: $0.album, cover: coverState($0.album)) }
        }
        listing.yield(listed.filter(query.matches))
        return true
    }

    /// A listing asks the store about each album's cover key when it judges at most one
    /// album in this many, else it lists the store's keys once.
    private static let coversAskedApart = 8

    /// How many albums a listing judges and hands on at a time.
    private static let listingRun = 8192

    /// `albums` (the first at 0-based `start`) with their positions and cover states, those
    /// `query` matches; a long run is judged on every core.
    private static func judged(
        _ albums: [Album], from start: Int, by coverState: @escaping @Sendable (Album) -> CoverState, matching query: AlbumQuery
    ) -> [ListedAlbum] {
        Parallel.joined(albums.count) { range in
            range.compactMap { index in
                let listed = ListedAlbum(position: start + index + 1, album: albums[index], cover: coverState(albums[index]))
                return query.matches(listed) ? listed : nil
            }
        }
    }

    /// `limit` albums from the 0-based `offset` of those `query` matches, in `order` (library
    /// order when it has no keys), with their covers — what one page of `serve` shows.
    /// Without a query or an order, the albums are the backend's point reads of that range (or
    /// the held library's) and their covers are judged with one lookup in the store, so a page
    /// costs a few queries whatever the library's size; otherwise every album is listed, as
    /// `list QUERY --sort …` lists them, and the page is cut from the matches. A backend with
    /// point reads lists only the details the query and order look at, and the page's albums
    /// are then read whole (the whole listing again if the library changed in between).
    public func page(matching query: AlbumQuery = .all, order: AlbumSort? = nil, offset: Int, limit: Int) async throws -> AlbumPage {
        guard query.isEmpty, order?.keys.isEmpty ?? true else {
            if let page = try await searchedPage(query, order, offset: offset, limit: limit) { return page }
            if held == nil, let reads = storage.pointReads {
                let named = query.details.union(order?.details ?? [])
                let page = try await pageOfMatches(query, order, offset: offset, limit: limit, details: named)
                if let whole = try await page.read(whole: reads) { return whole }
            }
            return try await pageOfMatches(query, order, offset: offset, limit: limit, details: Set(AlbumField.all))
        }
        let current = memento.current
        let albums = try await view()
        let total = try await albums.count()
        let start = min(offset, total)
        var currentPosition: Int?
        if let current { currentPosition = try await albums.index(of: current).map { $0 + 1 } }
        return AlbumPage(
            albums: await entries(try await albums.albums(in: start..<min(total, start &+ limit)), from: start + 1),
            total: total, current: current, currentPosition: currentPosition)
    }

    /// The page of ``page(matching:order:offset:limit:)`` for a query or an order, from a
    /// listing of every album with the fields `details` names.
    private func pageOfMatches(
        _ query: AlbumQuery, _ order: AlbumSort?, offset: Int, limit: Int, details: Set<AlbumField>
    ) async throws -> AlbumPage {
        let current = memento.current
        // Sorted, every match is kept until the order is known; in library order only the
        // page's are, the rest counted as they pass.
        let sorted = !(order?.keys.isEmpty ?? true)
        var kept: [ListedAlbum] = []
        var total = 0
        var currentPosition: Int?
        for try await run in listedPages(matching: query, details: details) {
            if let current, currentPosition == nil { currentPosition = run.first { $0.album.id == current }?.position }
            if sorted {
                kept += run
            } else if total + run.count > offset, kept.count < limit {
                let from = max(0, offset - total)
                kept += run[from..<min(run.count, from + limit - kept.count)]
            }
            total += run.count
        }
        if let order, sorted { kept = Array(order.sorted(kept).dropFirst(offset).prefix(limit)) }
        return AlbumPage(
            albums: kept.map { AlbumPage.Entry(listed: $0, coverKey: $0.cover == .stored ? coverKey(of: $0.album) : nil, coverFailure: coverFailure(of: $0.album)) },
            total: total, current: current, currentPosition: currentPosition)
    }

    /// `albums` (the first at 1-based `position`) with their covers: the memento judges each,
    /// and the store is asked once which of the keys it leaves open it holds (every one
    /// missing when the store cannot be read).
    public func entries(_ albums: [Album], from position: Int) async -> [AlbumPage.Entry] {
        await entries(albums.enumerated().map { (position: position - 1 + $0.offset, album: $0.element) })
    }

    /// `albums`, each at its 0-based position, with their covers, as ``entries(_:from:)``.
    func entries(_ albums: [(position: Int, album: Album)]) async -> [AlbumPage.Entry] {
        let covers = await judgedCovers(albums.map(\.album))
        return albums.indices.map { index in
            AlbumPage.Entry(
                listed: ListedAlbum(position: albums[index].position + 1, album: albums[index].album, cover: covers[index].state),
                coverKey: covers[index].storedKey, coverFailure: coverFailure(of: albums[index].album))
        }
    }

    /// `albums`, each at its 0-based position, listed with their covers as
    /// ``judgedCovers(_:)`` judges them.
    func listedWithCovers(_ albums: [(position: Int, album: Album)]) async -> [ListedAlbum] {
        let covers = await judgedCovers(albums.map(\.album))
        return zip(albums, covers).map { ListedAlbum(position: $0.position + 1, album: $0.album, cover: $1.state) }
    }

    /// The state of each of `albums`' covers, and its key when stored: the memento judges each,
    /// and the store is asked once which of the keys it leaves open it holds (every one
    /// missing when the store cannot be read).
    func judgedCovers(_ albums: [Album]) async -> [(state: CoverState, storedKey: CoverKey?)] {
        let judged = albums.map { CoverState.judged($0, resolutions: memento.covers) }
        let keys = judged.compactMap(\.key)
        let stored = keys.isEmpty ? [] : (try? await storage.covers.storedKeys(among: keys)) ?? []
        return judged.map { state, key in
            let storedKey = key.flatMap { stored.contains($0) ? $0 : nil }
            return (key == nil ? state : (storedKey == nil ? .missing : .stored), storedKey)
        }
    }

    /// The one album `reference` names, cover states taken from the store.
    public func resolve(_ reference: AlbumReference) async throws -> ListedAlbum {
        // An exact id is the first thing words can mean (``AlbumReference``): an indexed point
        // read finds it, where matching id prefixes and queries lists the whole library.
        if case .words(let words) = reference, words.count == 1, try await view().index(of: AlbumID(words[0])) != nil {
            return try await resolve(.id(AlbumID(words[0])))
        }
        guard case .words = reference else {
            // One album: ask the store about its cover alone, not for every key (`show 5`).
            let (album, position) = try await album(reference)
            return ListedAlbum(position: position, album: album, cover: await coverState(of: album))
        }
        let coverState = await coverStates()
        let snapshot = try await snapshot()
        let index = try reference.index(in: snapshot, coverState: coverState)
        return ListedAlbum(position: index + 1, album: snapshot.albums[index], cover: coverState(snapshot.albums[index]))
    }

    /// `reference` with words (an id prefix, a query) pinned to the id of the album they name,
    /// so a change resolves it under the lock by id.
    func pinned(_ reference: AlbumReference) async throws -> AlbumReference {
        guard case .words = reference else { return reference }
        return .id(try await resolve(reference).album.id)
    }

    /// The albums `words` choose for a change to several (see ``AlbumSelection``).
    public func choose(_ words: [String]) async throws -> AlbumSelection {
        let positions = words.compactMap(AlbumReference.position)
        guard positions.count == words.count, !words.isEmpty else {
            return try AlbumSelection(words: words, in: try await snapshot(), coverState: await coverStates())
        }
        // Positions alone (`remove 7`): read those albums, not the whole library.
        var chosen: [ListedAlbum] = []
        for position in Set(positions).sorted() { chosen.append(try await resolve(.position(position))) }
        return AlbumSelection(albums: chosen, byQuery: false)
    }

    /// Applies `patch` to each album in `ids`, as one step of history; returns each album
    /// that changed, before and after, in library order.
    @discardableResult
    public func update(_ ids: [AlbumID], _ patch: AlbumPatch) async throws -> [(before: Album, after: Album)] {
        let label = ids.count == 1 ? "update" : "update \(ids.count) albums"
        return try await change { albums, plan in
            var indexes: [Int] = []
            for id in ids {
                guard let index = try await albums.index(of: id) else { throw AlbumKitError(.noSuchAlbum, "no album with id '\(id)'") }
                indexes.append(index)
            }
            var changes: [(before: Album, after: Album)] = []
            for index in indexes.sorted() {
                let before = try await albums.album(at: index)
                let after = try patch.applied(to: before)
                if after != before { changes.append((before, after)) }
            }
            if !changes.isEmpty { plan.record(label, changes.map { .update(before: $0.before, after: $0.after) }) }
            return changes
        }
    }

    /// How each album's cover stands, asking the store for its keys once.
    func coverStates() async -> @Sendable (Album) -> CoverState { coverStates(stored: await Self.storedKeys(in: storage.covers)) }

    /// How each album's cover stands, given the keys the store holds.
    private func coverStates(stored: Set<CoverKey>) -> @Sendable (Album) -> CoverState {
        let resolutions = memento.covers
        return { album in CoverState(of: album, resolutions: resolutions) { stored.contains($0) } }
    }

    /// The keys `store` holds; none when it cannot be read (every cover then shows as missing).
    private static func storedKeys(in store: any CoverStore) async -> Set<CoverKey> { (try? await store.keySet()) ?? [] }
}

/// One page of albums, as ``Library/page(matching:order:offset:limit:)`` reads it.
public struct AlbumPage: Sendable {
    /// An album of the page and its cover.
    public struct Entry: Sendable {
        /// The album, its library position and its cover's state.
        public let listed: ListedAlbum
        /// The stored cover's key, when the state is ``CoverState/stored``.
        public let coverKey: CoverKey?
        /// Why the last fetch of its cover failed, if it did.
        public let coverFailure: String?
    }

    /// The albums of the page.
    public let albums: [Entry]
    /// How many albums match (the library's size without a query).
    public let total: Int
    /// The current album (the memento's), if any.
    public let current: AlbumID?
    /// The current album's 1-based library position, when it is among those that match.
    public let currentPosition: Int?
    /// Whether ``total`` counts every match; false when it is estimated from the part of the
    /// library read for the page (the first page of a search a tenth of a large library
    /// matches: ``Library/firstPageOfSearch(_:_:offset:limit:in:)``). The albums are exact either way.
    public var totalIsExact = true

    /// The page with each album read whole from `reads` at its position; nil when an album is
    /// no longer there (the library changed since the page was listed).
    func read(whole reads: any LibraryPointReads) async throws -> AlbumPage? {
        var entries: [Entry] = []
        for entry in albums {
            let position = entry.listed.position
            guard let album = try await reads.albums(in: (position - 1)..<position).first, album.id == entry.listed.album.id else { return nil }
            entries.append(Entry(listed: ListedAlbum(position: position, album: album, cover: entry.listed.cover), coverKey: entry.coverKey, coverFailure: entry.coverFailure))
        }
        return AlbumPage(albums: entries, total: total, current: current, currentPosition: currentPosition)
    }
}
