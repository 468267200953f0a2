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
        terms.compactMap { term in
            guard !term.negated, case .contains(let attribute, let words) = term.test, !words.isEmpty,
                let inCore = attribute.map(\.searchColumn) ?? true
            else { return nil }
            return SearchWord(folded: words, inCore: inCore)
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
