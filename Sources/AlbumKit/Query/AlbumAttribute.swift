/// A property of a listed album that queries, sort keys and templates name: the album's
/// fields plus its position and the state of its cover.
public enum AlbumAttribute: String, CaseIterable, Sendable {
    case position, id, title, artist, genre, year, coverUrl, cover

    /// Parses a name as people type it, ignoring case (`Artist`, `coverurl`).
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }

    /// Every name, for messages and suggestions.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// Whether values are whole numbers (compared and ranged as numbers).
    var isNumeric: Bool { self == .position || self == .year }
}
