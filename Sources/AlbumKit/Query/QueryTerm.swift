import Foundation

/// One condition of an ``AlbumQuery``: `artist:bowie`, `year:1970..1979`, `cover:missing`,
/// a bare word, each possibly negated with `^`.
struct QueryTerm: Sendable, Hashable {
    enum Test: Sendable, Hashable {
        /// The attribute's text holds the words, ignoring case and accents (nil: any of
        /// title, artist, genre, year); the words are kept folded (``FoldedText``).
        case contains(AlbumAttribute?, String)
        /// The attribute is empty (`genre:` finds albums without a genre).
        case isEmpty(AlbumAttribute)
        /// A number attribute (year, position, rating, the count of tracks) lies in the range;
        /// either bound may be open.
        case between(AlbumAttribute, lower: Double?, upper: Double?)
        /// A date attribute (released, added) lies in the range, each bound compared with as
        /// much of the date as it gives (`1970..1979`, `2024-01..`).
        case dates(AlbumAttribute, lower: String?, upper: String?)
        /// The album has the attribute (`has:barcode`).
        case has(AlbumAttribute)
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
            body[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }), colon != body.startIndex
        else {
            test = .contains(nil, FoldedText.fold(Self.unquoted(body)))
            return
        }
        let name = String(body[..<colon])
        let value = Self.unquoted(body[body.index(after: colon)...])
        if name == "has" {
            test = .has(try Self.attribute(value))
            return
        }
        test = try Self.test(try Self.attribute(name), value, term: text)
    }

    /// The attribute `name` stands for; an error says why none does.
    private static func attribute(_ name: String) throws(AlbumKitError) -> AlbumAttribute {
        guard let attribute = AlbumAttribute(name: name) else {
            throw AlbumQuery.invalid(
                "unknown field '\(name)' in query\(AlbumAttribute.hint(for: name, also: "; quote a word that holds ':' to match it as text"))")
        }
        return attribute
    }

    private static func test(_ attribute: AlbumAttribute, _ value: String, term: String) throws(AlbumKitError) -> Test {
        if attribute == .cover {
            guard let state = CoverState(rawValue: value.lowercased()) else {
                throw AlbumQuery.invalid("unknown cover state '\(value)' in query term '\(term)' (use stored, missing, failed or none)")
            }
            return .cover(state)
        }
        if value.isEmpty { return .isEmpty(attribute) }
        let bounds = value.components(separatedBy: "..")
        switch attribute.order {
        case .text:
            return .contains(attribute, FoldedText.fold(value))
        case .number:
            let numbers = bounds.map { bound -> Double?? in
                bound.isEmpty ? .some(nil) : Double(bound).flatMap { $0.isFinite && bound.count <= 12 ? .some($0) : nil }
            }
            guard (1...2).contains(bounds.count), !numbers.contains(where: { $0 == nil }), numbers.contains(where: { $0! != nil }) else {
                throw AlbumQuery.invalid(
                    "bad \(attribute) '\(value)' in query term '\(term)' (use N, FROM..TO, FROM.. or ..TO with numbers)")
            }
            return .between(attribute, lower: numbers[0]!, upper: bounds.count == 1 ? numbers[0]! : numbers[1]!)
        case .date:
            let valid = bounds.allSatisfy { $0.isEmpty || AlbumField.isDate($0) }
            guard (1...2).contains(bounds.count), valid, bounds.contains(where: { !$0.isEmpty }) else {
                throw AlbumQuery.invalid(
                    "bad \(attribute) '\(value)' in query term '\(term)' (use a date YYYY, YYYY-MM or YYYY-MM-DD, or FROM..TO, FROM.. or ..TO of them)")
            }
            let lower = bounds[0].isEmpty ? nil : bounds[0]
            let upper = bounds.count == 1 ? lower : (bounds[1].isEmpty ? nil : bounds[1])
            return .dates(attribute, lower: lower, upper: upper)
        }
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
            guard let number = Double(listed.text(of: attribute)) else {
                holds = false
                break
            }
            holds = number >= (lower ?? -.infinity) && number <= (upper ?? .infinity)
        case .dates(let attribute, let lower, let upper):
            let date = listed.text(of: attribute)
            holds = !date.isEmpty && lower.map { date.prefix($0.count) >= $0 } ?? true && upper.map { date.prefix($0.count) <= $0 } ?? true
        case .has(let attribute):
            holds = listed.has(attribute)
        case .cover(let state):
            holds = listed.cover == state
        }
        return holds != negated
    }

    /// The attribute the term looks at (nil for a bare word, which looks at core fields).
    var attribute: AlbumAttribute? {
        switch test {
        case .contains(let attribute, _): attribute
        case .isEmpty(let attribute), .between(let attribute, _, _), .dates(let attribute, _, _), .has(let attribute): attribute
        case .cover: .cover
        }
    }

    /// Whether the term looks at the cover's state (which costs a look at the store).
    var needsCoverState: Bool {
        if case .cover = test { true } else { false }
    }

    private static func contains(_ text: String, _ words: String) -> Bool {
        FoldedText.holds(text, words)
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0–9.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
