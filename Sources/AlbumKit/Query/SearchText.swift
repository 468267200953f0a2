/// The folded text (``FoldedText``) a row store keeps beside each album, so that the database
/// finds the albums a query's words are in (``AlbumQuery/searchWords``) without handing every
/// album over: one line per field, in two columns.
extension Album {
    /// The fields a bare word is looked for in (title, artist, genre, year), folded.
    package var searchCore: String {
        Self.folded(QueryTerm.bareWordAttributes, of: self)
    }

    /// Every other field queries compare as text (label, notes, tags, ids, fields of one's
    /// own, …), folded.
    package var searchText: String {
        Self.folded(AlbumAttribute.searchedBeyondCore, of: self)
    }

    /// The attributes' texts folded, one after another, joined by line breaks: the layout
    /// ``FoldedPlace`` reads back.
    private static func folded(_ attributes: [AlbumAttribute], of album: Album) -> String {
        let listed = ListedAlbum(position: 0, album: album, cover: .none)
        return attributes.map { FoldedText.fold(listed.text(of: $0)) }.joined(separator: "\n")
    }
}

extension AlbumAttribute {
    /// The attributes of ``Album/searchText``: every field of the table compared as text,
    /// but those of ``Album/searchCore``, the id and the cover's address — unique strings of
    /// hex digits that would make most of an index and that people do not search for by
    /// words (a query on them lists every album).
    static let searchedBeyondCore: [AlbumAttribute] = AlbumField.all.map { AlbumAttribute(field: $0) }.filter {
        $0.order == .text && !QueryTerm.bareWordAttributes.contains($0) && $0.kind != .field(.id) && $0.kind != .field(.coverUrl)
    }

    /// Where ``FoldedAlbum`` finds this attribute's folded text line by line, nil for one the
    /// search columns do not hold on lines of its own (an id, a field of one's own).
    var foldedPlace: FoldedPlace? { FoldedPlace.places[self] }

    /// Whether this attribute's text may hold line breaks (notes: every other field is one line).
    fileprivate var holdsLineBreaks: Bool {
        if case .field(let field) = kind { field.kind == .notes } else { false }
    }

    /// Which search column holds this attribute's text: true for ``Album/searchCore``, false
    /// for ``Album/searchText``, nil for neither.
    var searchColumn: Bool? {
        if QueryTerm.bareWordAttributes.contains(self) { return true }
        switch kind {
        case .id, .own: return false
        case .field: return Self.searchedBeyondCore.contains(self) ? false : nil
        case .position, .cover: return nil
        }
    }
}

/// A word a database looks for in the folded text it keeps of each album: in
/// ``Album/searchCore`` or in ``Album/searchText``.
package struct SearchWord: Sendable, Hashable {
    /// The word, folded.
    package let folded: String
    /// Whether it is looked for in ``Album/searchCore`` (else in ``Album/searchText``).
    package let inCore: Bool
}

extension AlbumQuery {
    /// The words every album the query matches holds in its search text: one for each term
    /// that looks for words and is not negated. Empty when no term does (`year:1977`,
    /// `^live`): the database cannot narrow such a query down.
    package var searchWords: [SearchWord] {
        wordsLookedFor.compactMap { attribute, words in
            guard let inCore = attribute.map(\.searchColumn) ?? true else { return nil }
            return SearchWord(folded: words, inCore: inCore)
        }
    }

    /// The words of each term that looks for words (`label:warp`, a bare word) and is not
    /// negated, with the attribute it names (nil for a bare word): words every album the query
    /// matches holds, what ``searchWords`` and ``wordsInTextFields`` each narrow a query by.
    private var wordsLookedFor: [(attribute: AlbumAttribute?, words: String)] {
        wordTerms.compactMap { term in
            guard let term, !term.negated, !term.words.isEmpty else { return nil }
            return (term.attribute, term.words)
        }
    }

    /// Each term that looks for words (`label:warp`, `^live`, a bare word): the attribute it
    /// names (nil for a bare word), its words, folded, and whether it is negated; nil for a
    /// term that looks at anything else. What every reading of a query's words starts from.
    private var wordTerms: [(attribute: AlbumAttribute?, words: String, negated: Bool)?] {
        terms.map { term in
            guard case .contains(let attribute, let words) = term.test else { return nil }
            return (attribute, words, term.negated)
        }
    }

    /// Whether a term looks at albums' positions (`position:3..10`).
    package var looksAtPositions: Bool { terms.contains { $0.attribute == .position } }

    /// Whether an album matches exactly when its search text holds ``searchWords``: every
    /// term is a bare word without a line break (a field's text is one line of the search text).
    package var isAnsweredBySearchWords: Bool {
        !terms.isEmpty && terms.allSatisfy { term in
            guard !term.negated, case .contains(nil, let words) = term.test else { return false }
            return !words.contains("\n")
        }
    }
}

/// Where an attribute's folded text lies in a search column, whose attributes' texts are
/// joined by line breaks (``Album/searchCore``, ``Album/searchText``). Only notes may hold line
/// breaks, so a field before the first that may is found by counting lines from the column's
/// start, one after the last by counting them from its end, and the one that may by both.
/// (Changing the columns' attributes changes what every stored row means: a schema upgrade step
/// must write them again.)
struct FoldedPlace: Hashable, Sendable {
    /// Whether it is in ``Album/searchCore`` (else in ``Album/searchText``).
    let inCore: Bool
    /// The lines before it, counted from the column's start (nil: counted from its end).
    let before: Int?
    /// The lines after it, counted from the column's end (nil: it is one line).
    let after: Int?

    /// Every attribute that has a place, by attribute.
    static let places: [AlbumAttribute: FoldedPlace] = places(of: QueryTerm.bareWordAttributes, inCore: true)
        .merging(places(of: AlbumAttribute.searchedBeyondCore, inCore: false)) { kept, _ in kept }

    /// The places of `attributes`, laid out one after another in one column; an attribute
    /// between two that may hold line breaks has none.
    private static func places(of attributes: [AlbumAttribute], inCore: Bool) -> [AlbumAttribute: FoldedPlace] {
        let breaking = attributes.indices.filter { attributes[$0].holdsLineBreaks }
        var places: [AlbumAttribute: FoldedPlace] = [:]
        for (index, attribute) in attributes.enumerated() {
            let after = attributes.count - 1 - index
            if attribute.holdsLineBreaks {
                if breaking == [index] { places[attribute] = FoldedPlace(inCore: inCore, before: index, after: after) }
            } else if index < breaking.first ?? attributes.count {
                places[attribute] = FoldedPlace(inCore: inCore, before: index, after: nil)
            } else if index > breaking.last! {
                places[attribute] = FoldedPlace(inCore: inCore, before: nil, after: after)
            }
        }
        return places
    }

    /// The text at this place in `column`; nil when the column has fewer lines (a damaged row).
    func text(in column: String) -> Substring? {
        let bytes = column.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        if let before {
            for _ in 0..<before {
                guard let found = bytes[start...].firstIndex(of: Self.lineBreak) else { return nil }
                start = bytes.index(after: found)
            }
            if after == nil { end = bytes[start...].firstIndex(of: Self.lineBreak) ?? end }
        }
        if let after {
            for _ in 0..<after {
                guard let found = bytes[start..<end].lastIndex(of: Self.lineBreak) else { return nil }
                end = found
            }
            if before == nil { start = bytes[start..<end].lastIndex(of: Self.lineBreak).map { bytes.index(after: $0) } ?? start }
        }
        return column[start..<end]
    }

    private static let lineBreak = UInt8(ascii: "\n")
}

/// An album's folded text as a row store keeps it in its two search columns: enough to check
/// a query whose terms each look for words in a field the columns hold line by line
/// (``AlbumQuery/foldedTest``) without reading the album itself.
package struct FoldedAlbum: Sendable {
    /// ``Album/searchCore`` as stored.
    let core: String
    /// ``Album/searchText`` as stored.
    let text: String

    package init(core: String, text: String) {
        self.core = core
        self.text = text
    }

    /// The folded text at `place`, nil when the row holds fewer lines than its layout.
    func text(at place: FoldedPlace) -> Substring? {
        place.text(in: place.inCore ? core : text)
    }
}

extension AlbumQuery {
    /// The query checked on an album's folded text (``FoldedAlbum``), the same answer
    /// ``matches(_:)`` gives for the album: nil unless every term looks for words (negated or
    /// not) in fields that have a ``FoldedPlace`` (`label:warp`, `^tags:live`, a bare word).
    package var foldedTest: (@Sendable (FoldedAlbum) -> Bool)? {
        var tests: [(places: [FoldedPlace], words: String, negated: Bool)] = []
        for term in wordTerms {
            guard let term else { return nil }
            let attributes = term.attribute.map { [$0] } ?? QueryTerm.bareWordAttributes
            let places = attributes.compactMap(\.foldedPlace)
            guard places.count == attributes.count else { return nil }
            tests.append((places, term.words, term.negated))
        }
        guard !tests.isEmpty else { return nil }
        return { [tests] album in
            tests.allSatisfy { test in
                test.places.contains { album.text(at: $0).map { FoldedText.holds(folded: $0, test.words) } ?? false } != test.negated
            }
        }
    }
}

/// Words each album a query matches holds in one of some fields that are each the album's own
/// text (title, artist, genre, label, …): what a store can check on an album's stored text
/// before it reads the album (``LibraryTextFieldScan``).
struct WordsInTextFields: Sendable {
    /// The fields, one of which holds the words.
    let fields: [AlbumField]
    /// The words, folded (``FoldedText``).
    let words: String
}

extension AlbumQuery {
    /// One ``WordsInTextFields`` for each term that looks for words (not negated) only in
    /// fields of ``AlbumField/Kind/text`` or ``AlbumField/Kind/requiredText``, whose text is the
    /// album's value as stored, trimmed. A bare word's year is left out when the words hold
    /// a character a year cannot (a year is digits alone); a term on any other field gives none.
    var wordsInTextFields: [WordsInTextFields] {
        wordsLookedFor.compactMap { attribute, words in
            var fields: [AlbumField] = []
            for attribute in attribute.map({ [$0] }) ?? QueryTerm.bareWordAttributes {
                guard case .field(let field) = attribute.kind else { return nil }
                switch field.kind {
                case .text, .requiredText: fields.append(field)
                case .year where words.utf8.contains(where: { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }): continue
                default: return nil
                }
            }
            return WordsInTextFields(fields: fields, words: words)
        }
    }
}

/// Point reads that pass over, unread, the albums whose stored text shows they cannot hold a
/// query's words (a json file found by its lines: ``LibraryFileLines/mayHold(_:at:)``).
/// An album passed over is not read, so damage in it is not noticed there, as a point read of
/// another album does not notice it; a listing that reads it (a query it may match, or none)
/// refuses the library as a whole load does.
protocol LibraryTextFieldScan: LibraryPointReads {
    /// The memento, how many albums the library holds, and the albums, each with its 0-based
    /// position and the details `details` names, that may hold every one of `terms`' words,
    /// in library order; nil when the store cannot tell (every album is then listed).
    func albums(mayHolding terms: [WordsInTextFields], details: Set<AlbumField>) async throws
        -> (state: LibraryState, count: Int, albums: [(position: Int, album: Album)])?
}
