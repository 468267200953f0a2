/// A property of a listed album that queries, sort keys and templates name: any field of
/// ``AlbumField``'s table (`label`, `rating`, `tracks` by count), an identity (`ids.discogs`),
/// a field of one's own (`discogs.folder`, `mood`, or `fields.mood`), the album's position and
/// the state of its cover.
public struct AlbumAttribute: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case position
        case cover
        case field(AlbumField)
        /// An entry of `ids`.
        case id(String)
        /// An entry of `fields`.
        case own(String)
    }

    let kind: Kind

    /// The name as queries write it.
    public var description: String {
        switch kind {
        case .position: "position"
        case .cover: "cover"
        case .field(let field): field.name
        case .id(let name): "ids.\(name)"
        case .own(let name): name
        }
    }

    static let position = AlbumAttribute(kind: .position)
    static let cover = AlbumAttribute(kind: .cover)
    static let title = AlbumAttribute(kind: .field(.title))
    static let artist = AlbumAttribute(kind: .field(.artist))
    static let genre = AlbumAttribute(kind: .field(.genre))
    static let year = AlbumAttribute(kind: .field(.year))

    /// Parses a name as people type it, ignoring the case of a table field's name
    /// (`Artist`, `catalognumber`); nil for a name that is not a field name, or one of one's own
    /// that is one or two letters from a known name (``typo(_:)``: `fields.NAME` names it anyway).
    public init?(name: String) {
        switch name.lowercased() {
        case "position": self.init(kind: .position)
        case "cover": self.init(kind: .cover)
        default:
            if let field = AlbumField.named(name), field != .ids, field != .fields {
                self.init(kind: .field(field))
            } else if name.hasPrefix("ids."), AlbumField.isIDName(String(name.dropFirst(4))) {
                self.init(kind: .id(String(name.dropFirst(4))))
            } else if name.hasPrefix("fields."), AlbumField.isFieldName(String(name.dropFirst(7))) {
                self.init(kind: .own(String(name.dropFirst(7))))
            } else if AlbumField.isFieldName(name), Self.typo(name) == nil {
                self.init(kind: .own(name))
            } else {
                return nil
            }
        }
    }

    /// ` (did you mean 'NAME'? …)` for a name a letter or two from a known one, else the list
    /// of names; `prefix` goes before each name (`$` in templates), `also` after the list.
    static func hint(for name: String, prefix: String = "", also: String = "") -> String {
        if let close = typo(name) {
            let own = prefix.isEmpty ? "fields.\(name)" : "\(prefix){fields.\(name)}"
            return " (did you mean '\(prefix)\(close)'? \(own) names a field of your own)"
        }
        return " (fields: \(names.map { prefix + $0 }.joined(separator: ", ")), \(prefix)ids.NAME or a name of your own\(also))"
    }

    private init(kind: Kind) { self.kind = kind }

    /// The attribute of a field of the table.
    init(field: AlbumField) { self.init(kind: .field(field)) }

    /// The known name `name` is one or two letters from, if any.
    static func typo(_ name: String) -> String? { Spelling.typo(of: name, among: names) }

    /// Every name of the table and of a listing, for messages and suggestions.
    public static var names: [String] { ["position"] + AlbumField.names.filter { $0 != "ids" && $0 != "fields" } + ["cover"] }

    /// The field of an album's details the attribute reads (`ids` for an id, `fields` for a
    /// field of one's own), nil for the core six, the position and the cover: a listing reads
    /// only the details it names.
    var detail: AlbumField? {
        switch kind {
        case .position, .cover: nil
        case .field(let field): field.isCore ? nil : field
        case .id: .ids
        case .own: .fields
        }
    }

    /// How values compare and range: as numbers (position, year, rating, the count of tracks),
    /// as dates (released, added: a range compares their leading parts) or as text.
    enum Order { case number, date, text }

    var order: Order {
        switch kind {
        case .position: .number
        case .field(let field):
            switch field.kind {
            case .year, .rating, .tracks: .number
            case .date, .timestamp: .date
            default: .text
            }
        default: .text
        }
    }
}
