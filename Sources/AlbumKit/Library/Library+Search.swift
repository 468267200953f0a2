/// Queries the database narrows down (``LibraryTextSearch``): it finds the albums whose folded
/// text holds the query's words, and only those are read and checked against every term, so
/// `list label:warp` or a search on the page reads what it may show, not the whole library.
/// What matched is remembered for the library's generation, so the next page of the same
/// search, or the same page asked again, costs one look at the generation and the page's rows.
extension Library {
    /// The store's text search, when the library is read by points from a store that has one.
    private var textSearch: (any LibraryTextSearch)? {
        held == nil ? storage.pointReads as? any LibraryTextSearch : nil
    }

    /// The albums `query` matches, in `order` (library order when it has no keys), as the
    /// store's places; nil when the store cannot narrow the query down (it has no text search,
    /// or the query no word to look for) or the library kept changing while it was read.
    func searchedMatches(_ query: AlbumQuery, _ order: AlbumSort?) async throws -> SearchedMatches? {
        guard let search = textSearch, let words = SearchedMatches.words(of: query) else { return nil }
        for _ in 0..<SearchedMatches.attempts {
            guard let generation = try await search.revision() else { return nil }
            if let kept = searches.matches(of: query, order, at: generation) { return kept }
            // The same search asked again while it runs (several pages of one search, several
            // people) waits for that run rather than scanning the library once more.
            let key = SearchedMatches.Running(query: query, order: order, generation: generation)
            let run = searching[key] ?? Task { try await match(query, order, words, in: search) }
            searching[key] = run
            do {
                let found = try await run.value
                searching[key] = nil
                searches.keep(found, of: query, order)
                return found
            } catch is LibraryMovedOn {
                searching[key] = nil
                continue
            } catch {
                searching[key] = nil
                throw error
            }
        }
        return nil
    }

    /// Finds the albums holding `words`, then checks each against every term (unless the words
    /// are the whole query) and puts them in `order`.
    private func match(_ query: AlbumQuery, _ order: AlbumSort?, _ words: [SearchWord], in search: any LibraryTextSearch) async throws -> SearchedMatches {
        let sorted = !(order?.keys.isEmpty ?? true)
        if query.isAnsweredBySearchWords, !sorted {
            let (generation, places) = try await search.places(holding: words)
            return SearchedMatches(generation: generation, places: places, inLibraryOrder: true)
        }
        let details = query.details.union(order?.details ?? [])
        guard !query.needsCoverState, !query.looksAtPositions else {
            return try await matchRunByRun(query, order, words, details: details, in: search)
        }
        // Every term can be checked on the album alone: the store checks each as it reads it.
        let (test, read) = Self.test(of: query, showing: order?.details ?? [])
        let found = try await search.matches(holding: words, details: read, albums: sorted, where: test)
        guard let order, sorted else { return SearchedMatches(generation: found.generation, places: found.places, inLibraryOrder: true) }
        // Ranks stand in for positions: they order the albums as positions do, which is all a
        // sort's tie-break asks.
        let listed = found.albums.enumerated().map { ListedAlbum(position: $0.offset + 1, album: $0.element, cover: .none) }
        return SearchedMatches(generation: found.generation, places: order.sorted(listed).map { found.places[$0.position - 1] }, inLibraryOrder: false)
    }

    /// ``match(_:_:_:in:)`` for a query that looks at covers or positions: the albums holding
    /// the words are read a run at a time with their positions and covers, and checked.
    private func matchRunByRun(
        _ query: AlbumQuery, _ order: AlbumSort?, _ words: [SearchWord], details: Set<AlbumField>, in search: any LibraryTextSearch
    ) async throws -> SearchedMatches {
        let (generation, candidates) = try await search.places(holding: words)
        let sorted = !(order?.keys.isEmpty ?? true)
        var places: [Double] = []
        var kept: [ListedAlbum] = []
        var placeAt: [Int: Double] = [:]
        var start = 0
        while start < candidates.count {
            let run = Array(candidates[start..<min(candidates.count, start + SearchedMatches.run)])
            let listed = try await listed(at: run, details: details, generation: generation, covers: query.needsCoverState, in: search)
            for (place, album) in zip(run, listed) where query.matches(album) {
                if sorted {
                    kept.append(album)
                    placeAt[album.position] = place
                } else {
                    places.append(place)
                }
            }
            start += run.count
        }
        if let order, sorted { places = order.sorted(kept).map { placeAt[$0.position]! } }
        return SearchedMatches(generation: generation, places: places, inLibraryOrder: !sorted)
    }

    /// The albums at `places` (increasing) with their positions, and their covers judged when
    /// `covers`; throws ``LibraryMovedOn`` when the library moved on.
    private func listed(
        at places: [Double], details: Set<AlbumField>, generation: Int64, covers: Bool, in search: any LibraryTextSearch
    ) async throws -> [ListedAlbum] {
        let positioned = try await search.albums(at: places, details: details, current: nil, generation: generation).albums
        if covers { return await listedWithCovers(positioned) }
        return positioned.map { ListedAlbum(position: $0.position + 1, album: $0.album, cover: .none) }
    }

    /// The page of ``page(matching:order:offset:limit:)`` for a query the store narrows down;
    /// nil when it cannot.
    func searchedPage(_ query: AlbumQuery, _ order: AlbumSort?, offset: Int, limit: Int) async throws -> AlbumPage? {
        guard let search = textSearch else { return nil }
        if let page = try await firstPageOfSearch(query, order, offset: offset, limit: limit, in: search) { return page }
        for _ in 0..<SearchedMatches.attempts {
            guard let matches = try await searchedMatches(query, order) else { return nil }
            let slice = Array(matches.places.dropFirst(offset).prefix(limit))
            do {
                // The page's albums, their positions and the current album's: one read.
                let current = memento.current
                let inOrder = slice.sorted()
                let read = try await search.albums(at: inOrder, details: Set(AlbumField.all), current: current, generation: matches.generation)
                let byPlace = Dictionary(uniqueKeysWithValues: zip(inOrder, read.albums))
                let currentPosition = read.current.flatMap { matches.holds($0.place) ? $0.position + 1 : nil }
                return AlbumPage(
                    albums: await entries(slice.map { byPlace[$0]! }), total: matches.places.count, current: current, currentPosition: currentPosition)
            } catch is LibraryMovedOn {
                continue
            }
        }
        return nil
    }

    /// How the store checks the albums holding `query`'s words, and the details it reads of
    /// each to show `shown`: on their folded text when the query allows (``AlbumQuery/foldedTest``:
    /// only the details shown are read, of the albums kept), else on each album, read with the
    /// details the query looks at too.
    private static func test(of query: AlbumQuery, showing shown: Set<AlbumField>) -> (SearchedTest, details: Set<AlbumField>) {
        if let folded = query.foldedTest { return (.folded(folded), shown) }
        return (.album { album in query.matches(ListedAlbum(position: 0, album: album, cover: .none)) }, shown.union(query.details))
    }

    /// Hands `listing` the albums `query` matches, in library order, in runs, with the details
    /// `details` names (and perhaps those the query looks at); false when the store cannot
    /// narrow the query down (nothing handed).
    func listSearched(_ query: AlbumQuery, details: Set<AlbumField>, into listing: AsyncThrowingStream<[ListedAlbum], any Error>.Continuation) async throws -> Bool {
        guard let search = textSearch else { return false }
        if !query.needsCoverState, !query.looksAtPositions, let words = SearchedMatches.words(of: query) {
            // Every term can be checked on the album alone: one pass reads and checks the
            // albums holding the words, with what the listing shows, and the covers of those
            // read are looked up (on a connection of their own) while the store reads on.
            let (test, read) = Self.test(of: query, showing: details)
            for _ in 0..<SearchedMatches.attempts {
                let (runs, handed) = AsyncStream.makeStream(of: [(place: Double, album: Album)].self)
                async let found = {
                    defer { handed.finish() }
                    return try await search.positionedMatches(holding: words, details: read, where: test, inRunsOf: SearchedMatches.run) {
                        handed.yield($0)
                    }
                }()
                var covered: [(place: Double, album: Album, cover: CoverState)] = []
                for await run in runs {
                    for (matched, cover) in zip(run, await judgedCovers(run.map(\.album))) { covered.append((matched.place, matched.album, cover.state)) }
                }
                let positions: [Int]
                do { positions = try await found.positions } catch is LibraryMovedOn { continue }
                if zip(covered, covered.dropFirst()).contains(where: { $0.place >= $1.place }) { covered.sort { $0.place < $1.place } }
                var start = 0
                while start < covered.count {
                    let end = min(covered.count, start + SearchedMatches.run)
                    listing.yield((start..<end).map { ListedAlbum(position: positions[$0] + 1, album: covered[$0].album, cover: covered[$0].cover) })
                    start = end
                }
                return true
            }
            return false
        }
        for _ in 0..<SearchedMatches.attempts {
            guard let matches = try await searchedMatches(query, nil) else { return false }
            var start = 0
            do {
                while start < matches.places.count {
                    let run = Array(matches.places[start..<min(matches.places.count, start + SearchedMatches.run)])
                    listing.yield(try await listed(at: run, details: details.union(query.details), generation: matches.generation, covers: true, in: search))
                    start += run.count
                }
                return true
            } catch is LibraryMovedOn where start == 0 {
                continue
            } catch is LibraryMovedOn {
                throw AlbumKitError(.libraryState, "\(storage.location): the library changed while it was listed; list again")
            }
        }
        return false
    }
}

/// The albums a query matched, as a row store's places in the order asked, at one generation
/// of the library.
struct SearchedMatches: Sendable {
    let generation: Int64
    let places: [Double]
    /// Whether ``places`` are in library order (increasing), else in a sort's order.
    let inLibraryOrder: Bool

    /// Whether `place` is among the matches.
    func holds(_ place: Double) -> Bool {
        guard inLibraryOrder else { return places.contains(place) }
        var low = 0, high = places.count
        while low < high {
            let middle = (low + high) / 2
            if places[middle] < place { low = middle + 1 } else { high = middle }
        }
        return low < places.count && places[low] == place
    }

    /// The words the database looks for to narrow `query` down; nil when it has none, or one
    /// too long to ask for.
    static func words(of query: AlbumQuery) -> [SearchWord]? {
        let words = query.searchWords
        return words.isEmpty || words.contains { $0.folded.utf8.count > longestWord } ? nil : words
    }

    /// A search running at a generation of the library, which the same search asked meanwhile
    /// waits for.
    struct Running: Hashable {
        var query: AlbumQuery
        var order: AlbumSort?
        var generation: Int64
    }

    /// How many albums are read and checked at a time.
    static let run = 4096
    /// How many times a search is tried again when the library changes while it is read.
    static let attempts = 3
    /// The longest word (in bytes) the database is asked for; a longer one is looked for by
    /// listing every album (SQLite refuses a `LIKE` pattern over 50 000 bytes).
    static let longestWord = 1000

    /// The matches remembered for the last few searches, each valid at its generation.
    struct Cache: Sendable {
        private struct Key: Hashable {
            var query: AlbumQuery
            var order: AlbumSort?
        }
        private var entries: [(key: Key, matches: SearchedMatches)] = []
        /// How many searches are remembered.
        private static let capacity = 8
        /// The most places one search may keep in memory (8 bytes each).
        private static let largest = 250_000

        /// The matches remembered for `query` in `order`, if found at `generation`.
        mutating func matches(of query: AlbumQuery, _ order: AlbumSort?, at generation: Int64) -> SearchedMatches? {
            let key = Key(query: query, order: order)
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            guard entry.matches.generation == generation else { return nil }
            entries.append(entry)
            return entry.matches
        }

        /// Remembers `matches` of `query` in `order`, forgetting the least recently used.
        mutating func keep(_ matches: SearchedMatches, of query: AlbumQuery, _ order: AlbumSort?) {
            guard matches.places.count <= Self.largest else { return }
            let key = Key(query: query, order: order)
            entries.removeAll { $0.key == key }
            entries.append((key, matches))
            if entries.count > Self.capacity { entries.removeFirst() }
        }
    }
}
