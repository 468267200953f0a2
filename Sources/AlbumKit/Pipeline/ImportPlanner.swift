/// What to do with a duplicate on import (`--on-duplicate`).
public enum DuplicatePolicy: String, Sendable, CaseIterable, Codable {
    /// Leave the stored album; drop the incoming one (the default).
    case skip
    /// Overwrite the stored album's fields with the incoming ones, keeping its id and place.
    case replace
    /// Add the incoming album as well, under a new id.
    case keep
}

/// An album read from an input, validated, with whether the input gave its id.
public struct IncomingAlbum: Sendable, Hashable {
    public var album: Album
    public var hadID: Bool

    public init(album: Album, hadID: Bool) {
        self.album = album
        self.hadID = hadID
    }
}

/// Decides, purely, which edits merge incoming albums into a library: a duplicate is the
/// same id, or — for an album that came without one — the same artist, title and year,
/// ignoring case (SPEC 7). Duplicates inside the incoming list count too.
public struct ImportPlanner: Sendable {
    public var policy: DuplicatePolicy

    public init(policy: DuplicatePolicy) { self.policy = policy }

    /// The edits (appending at the end) and each incoming album's outcome, in input order.
    public func plan(_ incoming: [IncomingAlbum], into snapshot: LibrarySnapshot) -> (edits: [LibraryEdit], outcomes: [(Album, ImportOutcome)]) {
        var byID: [AlbumID: Album] = [:]
        var byKey: [String: AlbumID] = [:]
        for album in snapshot.albums {
            byID[album.id] = album
            byKey[album.duplicateKey] = byKey[album.duplicateKey] ?? album.id
        }
        var edits: [LibraryEdit] = []
        var outcomes: [(Album, ImportOutcome)] = []
        var count = snapshot.albums.count
        for item in incoming {
            let existingID = item.hadID ? (byID[item.album.id] != nil ? item.album.id : nil) : byKey[item.album.duplicateKey]
            guard let existingID, let existing = byID[existingID] else {
                let album = byID[item.album.id] == nil ? item.album : renamed(item.album)
                edits.append(.insert(album, at: count))
                count += 1
                byID[album.id] = album
                byKey[album.duplicateKey] = byKey[album.duplicateKey] ?? album.id
                outcomes.append((album, .added))
                continue
            }
            switch policy {
            case .skip:
                outcomes.append((existing, .skipped))
            case .replace:
                var replacement = item.album
                replacement.id = existing.id
                if replacement != existing { edits.append(.update(before: existing, after: replacement)) }
                byID[existing.id] = replacement
                outcomes.append((replacement, .replaced))
            case .keep:
                let copy = renamed(item.album)
                edits.append(.insert(copy, at: count))
                count += 1
                byID[copy.id] = copy
                outcomes.append((copy, .kept))
            }
        }
        return (edits, outcomes)
    }

    private func renamed(_ album: Album) -> Album {
        var copy = album
        copy.id = .generate()
        return copy
    }
}
