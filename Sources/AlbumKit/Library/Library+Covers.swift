/// The library's side of covers: which references still need fetching, the state of each
/// album's cover, the memento's reference → cover mapping, and pruning the store.
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
            guard let reference = album.coverUrl, !reference.hasPrefix("covers/"), state.covers[reference]?.key == nil else {
                return nil
            }
            return .coverRequested(album.id, reference: reference)
        }
    }

    /// How `album`'s cover stands: stored with the library, missing (not fetched yet, or
    /// gone from the store), failed (the last fetch failed), or none.
    public func coverState(of album: Album) async -> CoverState {
        let (state, key) = CoverState.judged(album, resolutions: snapshot.state.covers)
        guard let key else { return state }
        return (try? await storage.covers.contains(key)) == true ? .stored : .missing
    }

    /// The stored cover of `album`, if its bytes are in the store.
    public func storedCover(of album: Album) async -> CoverKey? {
        guard let reference = album.coverUrl,
            let key = snapshot.state.covers[reference]?.key ?? CoverKey(fileName: reference),
            (try? await storage.covers.contains(key)) == true
        else { return nil }
        return key
    }

    /// Records what fetching gave for each reference, in the memento (not a step of history).
    public func recordCovers(_ resolutions: [String: CoverResolution]) async throws {
        try await write { snapshot in
            snapshot.state.covers.merge(resolutions) { _, new in new }
            return ((), .stateOnly, [])
        }
    }

    /// Drops stored covers and memento entries that no album uses — neither in the library
    /// nor in its undo/redo history, so an undo never brings back an album without its cover.
    /// Returns how many covers were removed and the bytes freed.
    public func pruneCovers() async throws -> (removed: Int, bytes: Int) {
        let keep = try await write { snapshot in
            var references = Set(snapshot.albums.compactMap(\.coverUrl))
            for change in snapshot.state.undo + snapshot.state.redo {
                for edit in change.edits { references.formUnion(Self.albums(in: edit).compactMap(\.coverUrl)) }
            }
            let before = snapshot.state.covers
            snapshot.state.covers = before.filter { references.contains($0.key) }
            let keys = Set(references.compactMap(CoverKey.init(fileName:)) + snapshot.state.covers.values.compactMap(\.key))
            return (keys, before == snapshot.state.covers ? nil : .stateOnly, [])
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
