/// The one query language for choosing albums, shared by the command line and `serve`
/// (`albumkit help queries` documents it):
///
/// - `artist:bowie` — the field holds the text, ignoring case and accents (`title:"low"`:
///   quotes keep spaces and colons together); `genre:` — the field is empty;
/// - `year:1977`, `year:1970..1979`, `year:1970..`, `year:..1979` (also `position:`);
/// - `cover:stored|missing|failed|none`;
/// - a bare word — found in the title, artist, genre or year;
/// - `^` before a term negates it; every term must hold.
public struct AlbumQuery: Sendable, Hashable, CustomStringConvertible {
    /// The parsed terms, all of which must hold.
    let terms: [QueryTerm]
    /// The terms as typed.
    public let description: String

    /// The query of these terms, one term per element (as the shell splits a command line:
    /// `list 'artist:david bowie' 1977`).
    public init(terms: [String]) throws(AlbumKitError) {
        var parsed: [QueryTerm] = []
        for term in terms where !term.isEmpty { parsed.append(try QueryTerm(parsing: term)) }
        self.terms = parsed
        description = terms.joined(separator: " ")
    }

    /// The query written as one line (`artist:"david bowie" ^live`): terms split at white
    /// space outside quotes.
    public init(parsing text: String) throws(AlbumKitError) {
        try self.init(terms: try Self.split(text))
    }

    /// The query that every album matches.
    public static let all = try! AlbumQuery(terms: [])

    /// Whether the query has no terms (so matches every album).
    public var isEmpty: Bool { terms.isEmpty }

    /// Whether any term looks at cover states, which need a look at the cover store.
    public var needsCoverState: Bool { terms.contains(where: \.needsCoverState) }

    /// The fields of the albums' details the terms look at (``AlbumAttribute/detail``).
    public var details: Set<AlbumField> { Set(terms.compactMap { $0.attribute?.detail }) }

    /// Whether `listed` passes every term.
    public func matches(_ listed: ListedAlbum) -> Bool {
        terms.allSatisfy { $0.matches(listed) }
    }

    /// The 0-based indexes of the albums in `snapshot` that match; `coverState` is asked
    /// only when a term needs it.
    public func indexes(in snapshot: LibrarySnapshot, coverState: (Album) -> CoverState) -> [Int] {
        let needsCover = needsCoverState
        return snapshot.albums.indices.filter { index in
            let album = snapshot.albums[index]
            return matches(ListedAlbum(position: index + 1, album: album, cover: needsCover ? coverState(album) : .none))
        }
    }

    /// An error about a query someone typed.
    static func invalid(_ message: String) -> AlbumKitError {
        AlbumKitError(.invalidQuery, message)
    }

    /// Splits a line into terms at white space outside double quotes (apostrophes are
    /// text: `It's`); the quotes stay, for the term to read.
    static func split(_ text: String) throws(AlbumKitError) -> [String] {
        var terms: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
            } else if character.isWhitespace && !quoted {
                if !current.isEmpty { terms.append(current) }
                current = ""
                continue
            }
            current.append(character)
        }
        if quoted { throw invalid("unclosed \" in query '\(text)'") }
        if !current.isEmpty { terms.append(current) }
        return terms
    }
}
