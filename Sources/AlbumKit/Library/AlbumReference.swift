/// How a caller names one album: a 1-based position, an id, or words a person typed —
/// an id, a unique id prefix of at least ``minimumPrefixLength`` characters, or query terms
/// (``AlbumQuery``) that match exactly one album. On the command line a bare number is a
/// position (ids always hold a non-digit) and anything else is words.
public enum AlbumReference: Hashable, Sendable, CustomStringConvertible {
    /// A 1-based position.
    case position(Int)
    /// Exactly this id.
    case id(AlbumID)
    /// Words as typed: an id, a unique id prefix, or query terms matching one album.
    case words([String])

    /// The shortest id prefix that names an album.
    public static let minimumPrefixLength = 6

    /// Parses one command-line word.
    public init(_ text: String) { self.init(words: [text]) }

    /// Parses command-line words: one bare number is a position, anything else words.
    public init(words: [String]) {
        if words.count == 1, let position = Self.position(words[0]) {
            self = .position(position)
        } else {
            self = .words(words)
        }
    }

    /// The position a bare number gives (nil for anything else).
    static func position(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text) ?? .max
    }

    /// The reference as messages name it: `at position 3`, `with id 'x'`, `'bowie'`.
    public var description: String {
        switch self {
        case .position(let position): "at position \(position)"
        case .id(let id): "with id '\(id)'"
        case .words(let words): "'\(words.joined(separator: " "))'"
        }
    }

    /// The 0-based index this reference names in `snapshot`, judging cover states from the
    /// memento alone (a cover with a known key counts as stored). ``Library/resolve(_:)``
    /// asks the cover store.
    public func index(in snapshot: LibrarySnapshot) throws(AlbumKitError) -> Int {
        try index(in: snapshot) { CoverState(of: $0, resolutions: snapshot.state.covers) { _ in true } }
    }

    /// The 0-based index this reference names in `snapshot`; `coverState` tells the state of
    /// an album's cover when a query asks for it. Words that name no album, or several,
    /// are an error that says so (listing the candidates).
    public func index(in snapshot: LibrarySnapshot, coverState: (Album) -> CoverState) throws(AlbumKitError) -> Int {
        switch self {
        case .position(let position):
            guard position >= 1, position <= snapshot.albums.count else {
                throw .noSuchAlbum(description, count: snapshot.albums.count)
            }
            return position - 1
        case .id(let id):
            guard let index = snapshot.index(of: id) else {
                throw AlbumKitError(.noSuchAlbum, "no album with id '\(id)'")
            }
            return index
        case .words(let words):
            let indexes = try Self.indexes(of: words, in: snapshot, coverState: coverState)
            guard indexes.count == 1 else {
                throw indexes.isEmpty
                    ? AlbumKitError(.noSuchAlbum, "no album matches \(description) (as an id, an id prefix or a query)")
                    : Self.ambiguous(description, indexes, in: snapshot)
            }
            return indexes[0]
        }
    }

    /// Every album `words` could mean: the album with that id, else those whose id starts
    /// with it (at least ``minimumPrefixLength`` characters), else those the query matches.
    static func indexes(
        of words: [String], in snapshot: LibrarySnapshot, coverState: (Album) -> CoverState
    ) throws(AlbumKitError) -> [Int] {
        if words.count == 1, let matches = idMatches(words[0], in: snapshot) { return matches }
        let query: AlbumQuery
        do {
            query = try AlbumQuery(terms: words)
        } catch where words.count == 1 {
            throw AlbumKitError(.noSuchAlbum, "no album with id '\(words[0])', and as a query: \(error.description)")
        }
        return query.isEmpty ? [] : query.indexes(in: snapshot, coverState: coverState)
    }

    /// The album whose id is `word`, or those whose id starts with it; nil when none.
    static func idMatches(_ word: String, in snapshot: LibrarySnapshot) -> [Int]? {
        if let index = snapshot.index(of: AlbumID(word)) { return [index] }
        guard word.count >= minimumPrefixLength else { return nil }
        let prefixed = snapshot.albums.indices.filter { snapshot.albums[$0].id.rawValue.hasPrefix(word) }
        return prefixed.isEmpty ? nil : prefixed
    }

    /// The error for words that name several albums: the first few, each with its position,
    /// title and the shortest id prefix that names it alone.
    static func ambiguous(_ name: String, _ indexes: [Int], in snapshot: LibrarySnapshot) -> AlbumKitError {
        let shown = 8
        let listed = indexes.prefix(shown).map { index in
            let album = snapshot.albums[index]
            return "\(index + 1) '\(album.title)' [\(uniquePrefix(of: album.id, in: snapshot))]"
        }
        let more = indexes.count > shown ? ", and \(indexes.count - shown) more" : ""
        return AlbumKitError(
            .ambiguousAlbum,
            "\(name) matches \(indexes.count) albums: \(listed.joined(separator: ", "))\(more); name one by its position, id or a narrower query")
    }

    /// The shortest prefix of `id` (at least ``minimumPrefixLength`` characters) that no
    /// other album's id starts with.
    static func uniquePrefix(of id: AlbumID, in snapshot: LibrarySnapshot) -> String {
        let text = id.rawValue
        var length = minimumPrefixLength
        while length < text.count {
            let prefix = text.prefix(length)
            if !snapshot.albums.contains(where: { $0.id != id && $0.id.rawValue.hasPrefix(prefix) }) { return String(prefix) }
            length += 1
        }
        return text
    }
}
