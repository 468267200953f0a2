/// The first pages of a search in library order, read without finding every match: the albums
/// holding the query's words are read in order until the page is full and one more album
/// matches, so a word a tenth of a million albums hold costs a few hundred rows where every
/// match took a second (BENCHMARKS.md, the first broad search). The total is then estimated
/// from how far into the library the page's matches reached; it is exact when the reading
/// reached the last album holding the words, and in every other case (a sort, matches kept
/// from an earlier search, a page too deep, terms that turn most albums holding the words
/// away) ``Library/searchedPage(_:_:offset:limit:)`` finds every match as before.
extension Library {
    /// The page of `limit` albums from `offset` of those `query` matches in library order
    /// (`order`, which has no keys), read as far as the page needs; nil when the query is not
    /// read so (it looks at covers or positions, has no word the store looks for, or its matches
    /// are kept already) or the reading budget (``SearchedMatches/run`` albums holding the
    /// words) ran out first.
    func firstPageOfSearch(_ query: AlbumQuery, _ order: AlbumSort?, offset: Int, limit: Int, in search: any LibraryTextSearch) async throws -> AlbumPage? {
        guard order?.keys.isEmpty ?? true, !query.needsCoverState, !query.looksAtPositions, let words = SearchedMatches.words(of: query),
            offset < SearchedMatches.run, limit < SearchedMatches.run
        else { return nil }
        let wanted = offset + limit + 1  // one past the page: whether more follow
        for _ in 0..<SearchedMatches.attempts {
            guard let generation = try await search.revision() else { return nil }
            if searches.matches(of: query, order, at: generation) != nil { return nil }
            let found = try await search.firstMatches(holding: words, details: query.details, count: wanted, budget: SearchedMatches.run) { album in
                query.matches(ListedAlbum(position: 0, album: album, cover: .none))
            }
            guard found.stop == nil || found.places.count >= wanted else { return nil }
            let slice = Array(found.places.dropFirst(offset).prefix(limit))
            let current = memento.current
            do {
                let read = try await search.albums(at: slice, details: Set(AlbumField.all), current: current, generation: found.generation)
                var currentPosition: Int?
                if let held = read.current, try await matches(query, place: held.place, position: held.position, found, in: search) {
                    currentPosition = held.position + 1
                }
                return AlbumPage(
                    albums: await entries(read.albums), total: Self.total(found), current: current, currentPosition: currentPosition,
                    totalIsExact: found.stop == nil)
            } catch is LibraryMovedOn {
                continue
            }
        }
        return nil
    }

    /// Whether the album at `place` (0-based `position`) matches `query`: among `found` when
    /// the reading passed it, else read and checked.
    private func matches(_ query: AlbumQuery, place: Double, position: Int, _ found: FirstMatches, in search: any LibraryTextSearch) async throws -> Bool {
        if found.stop.map({ place <= $0.place }) ?? true { return found.places.contains(place) }
        let read = try await search.albums(at: [place], details: query.details, current: nil, generation: found.generation).albums
        return read.first.map { query.matches(ListedAlbum(position: position + 1, album: $0.album, cover: .none)) } ?? false
    }

    /// The matches `found` counts, or estimates when the reading stopped early: those found,
    /// spread over the library at the rate they came in the part read.
    private static func total(_ found: FirstMatches) -> Int {
        guard let stop = found.stop else { return found.places.count }
        let estimate = (Double(found.places.count) * Double(stop.albums) / Double(stop.position + 1)).rounded()
        return max(found.places.count, min(stop.albums, Int(estimate)))
    }
}
