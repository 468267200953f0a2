import Foundation

/// One condition of an ``AlbumQuery``: `artist:bowie`, `year:1970..1979`, `cover:missing`,
/// a bare word, each possibly negated with `^`.
struct QueryTerm: Sendable, Hashable {
    enum Test: Sendable, Hashable {
        /// The attribute's text holds the words, ignoring case and accents (nil: any of
        /// title, artist, genre, year).
        case contains(AlbumAttribute?, String)
        /// The attribute is empty (`genre:` finds albums without a genre).
        case isEmpty(AlbumAttribute)
        /// A number attribute (year, position) lies in the range; either bound may be open.
        case between(AlbumAttribute, lower: Int?, upper: Int?)
        /// The cover is in this state.
        case cover(CoverState)
    }

    let test: Test
    let negated: Bool

    /// The attributes a bare word is looked for in.
    static let bareWordAttributes: [AlbumAttribute] = [.title, .artist, .genre, .year]

    /// Parses one term as typed; `text` is the whole term for messages.
    init(parsing text: String) throws(AlbumKitError) {
        var body = Substring(text)
        negated = body.hasPrefix("^")
        if negated { body = body.dropFirst() }
        guard let colon = body.firstIndex(of: ":"), !body.hasPrefix("\""),
            body[..<colon].allSatisfy({ $0.isASCII && $0.isLetter }), colon != body.startIndex
        else {
            test = .contains(nil, Self.unquoted(body))
            return
        }
        let name = String(body[..<colon])
        guard let attribute = AlbumAttribute(name: name) else {
            let hint = Spelling.closest(to: name, among: AlbumAttribute.names).map { " (did you mean '\($0)'?)" }
                ?? " (fields: \(AlbumAttribute.names.joined(separator: ", ")); quote a word that holds ':' to match it as text)"
            throw AlbumQuery.invalid("unknown field '\(name)' in query\(hint)")
        }
        test = try Self.test(attribute, Self.unquoted(body[body.index(after: colon)...]), term: text)
    }

    private static func test(_ attribute: AlbumAttribute, _ value: String, term: String) throws(AlbumKitError) -> Test {
        if attribute == .cover {
            guard let state = CoverState(rawValue: value.lowercased()) else {
                throw AlbumQuery.invalid("unknown cover state '\(value)' in query term '\(term)' (use stored, missing, failed or none)")
            }
            return .cover(state)
        }
        if value.isEmpty { return .isEmpty(attribute) }
        guard attribute.isNumeric else { return .contains(attribute, value) }
        let bounds = value.components(separatedBy: "..")
        let numbers = bounds.map { bound in bound.isEmpty ? nil : (bound.count <= 9 && bound.allSatisfy(\.isASCIIDigit) ? Int(bound) : -1) }
        guard (1...2).contains(bounds.count), !numbers.contains(-1), numbers.contains(where: { $0 != nil }) else {
            throw AlbumQuery.invalid(
                "bad \(attribute.rawValue) '\(value)' in query term '\(term)' (use N, FROM..TO, FROM.. or ..TO with whole numbers)")
        }
        return .between(attribute, lower: numbers[0], upper: bounds.count == 1 ? numbers[0] : numbers[1])
    }

    /// The text without one pair of surrounding double quotes.
    private static func unquoted(_ text: Substring) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : String(text)
    }

    /// Whether `listed` passes this term.
    func matches(_ listed: ListedAlbum) -> Bool {
        let holds: Bool
        switch test {
        case .contains(let attribute?, let words):
            holds = Self.contains(listed.text(of: attribute), words)
        case .contains(nil, let words):
            holds = Self.bareWordAttributes.contains { Self.contains(listed.text(of: $0), words) }
        case .isEmpty(let attribute):
            holds = listed.text(of: attribute).isEmpty
        case .between(let attribute, let lower, let upper):
            guard let number = Int(listed.text(of: attribute)) else {
                holds = false
                break
            }
            holds = number >= (lower ?? .min) && number <= (upper ?? .max)
        case .cover(let state):
            holds = listed.cover == state
        }
        return holds != negated
    }

    /// Whether the term looks at the cover's state (which costs a look at the store).
    var needsCoverState: Bool {
        if case .cover = test { true } else { false }
    }

    private static func contains(_ text: String, _ words: String) -> Bool {
        words.isEmpty || text.range(of: words, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0–9.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
