/// `verify`: what a library, or the contents of a bundle, must satisfy beyond each album's
/// own field rules — unique ids, every `covers/…` reference present, every stored cover
/// hashing to its name, a current album that is in the library. Each problem is one sentence
/// naming the album or entry.
public enum LibraryVerifier {
    /// Problems with `albums` (each with the label that names it): ids used twice, covers
    /// `hasCover` does not know, and a `current` album (from `stateLabel`) that is not among them.
    public static func problems(
        albums: [(album: Album, label: String)], current: AlbumID?, stateLabel: String,
        hasCover: (String) async throws -> Bool
    ) async rethrows -> [String] {
        var problems: [String] = []
        var firstUse: [AlbumID: String] = [:]
        for (album, label) in albums {
            if let first = firstUse[album.id] {
                problems.append("album \(label): id '\(album.id)' is already used by \(first)")
            } else {
                firstUse[album.id] = label
            }
            if let reference = album.coverUrl, CoverReference.isInFolder(reference), try await !hasCover(reference) {
                problems.append("album \(label): its cover \(reference) is missing")
            }
        }
        if let current, firstUse[current] == nil {
            problems.append("\(stateLabel): the current album '\(current)' is not in the library")
        }
        return problems
    }

    /// Notes on stored covers that nothing links (``unlinked(in:steps:stored:)``). Harmless (a
    /// killed import can leave them, even cut short; `covers prune` drops them), but a library
    /// whose albums show their covers missing beside such covers has lost its links.
    public static func unlinkedCovers(in snapshot: LibrarySnapshot, steps: [HistoryStep], stored: [CoverKey]) -> [String] {
        let unlinked = unlinked(in: snapshot, steps: steps, stored: stored)
        guard !unlinked.isEmpty else { return [] }
        let unresolved = snapshot.albums.filter { album in
            guard let reference = album.coverUrl, !CoverReference.isInFolder(reference) else { return false }
            return snapshot.state.covers[reference]?.key == nil
        }
        var notes = unlinked.map { "stored cover \($0.bundlePath) is linked to no album ('albumkit covers prune' drops it)" }
        if !unresolved.isEmpty {
            notes.append("\(unresolved.count) album\(unresolved.count == 1 ? " has its cover" : "s have their covers") missing while \(unlinked.count) stored cover\(unlinked.count == 1 ? " is" : "s are") linked to nothing (first: '\(unresolved[0].title)')")
        }
        return notes
    }

    /// The stored covers nothing links, in order: no album or history step names them, and no
    /// memento entry resolves a reference to them.
    public static func unlinked(in snapshot: LibrarySnapshot, steps: [HistoryStep], stored: [CoverKey]) -> [CoverKey] {
        var linked = Set(snapshot.state.covers.values.compactMap(\.key))
        var albums = snapshot.albums
        for step in steps {
            for edit in step.edits {
                switch edit {
                case .insert(let album, _), .remove(let album, _): albums.append(album)
                case .update(let before, let after): albums += [before, after]
                case .move: break
                }
            }
        }
        for album in albums {
            if let reference = album.coverUrl, let key = CoverKey(fileName: reference) { linked.insert(key) }
        }
        return stored.filter { !linked.contains($0) }.sorted()
    }

    /// Problems in a stored library: the checks above, and the bytes of every stored cover
    /// except those in `unlinked` hashing to its name. An unlinked one is garbage whatever its
    /// bytes (an import killed while writing it leaves it cut short): a note, not damage.
    public static func problems(in snapshot: LibrarySnapshot, covers: any CoverStore, location: String, unlinked: Set<CoverKey> = []) async throws -> [String] {
        let labelled = snapshot.albums.enumerated().map { ($0.element, "\(location) #\($0.offset + 1) '\($0.element.title)'") }
        var problems = try await Self.problems(albums: labelled, current: snapshot.state.current, stateLabel: location) { reference in
            guard let key = CoverKey(fileName: reference) else { return false }
            return try await covers.contains(key)
        }
        for key in try await covers.keys() where !unlinked.contains(key) {
            guard let bytes = try await covers.data(for: key) else { continue }
            let actual = SHA256Digest.hex(of: bytes)
            if actual != key.sha256 { problems.append("cover \(key.bundlePath): its bytes hash to \(actual), not to its name") }
        }
        return problems
    }
}
