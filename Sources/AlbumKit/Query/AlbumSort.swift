import Foundation

/// An order for listed albums, from keys such as `year-`, `artist+`, `title`: each key is an
/// attribute, ascending unless it ends in `-`. Text compares ignoring case and accents,
/// with numbers inside it in numeric order; an empty value comes first. Ties keep library order.
public struct AlbumSort: Sendable, Hashable {
    /// One key of the order.
    public struct Key: Sendable, Hashable {
        /// What is compared.
        public let attribute: AlbumAttribute
        /// Whether larger values come first (`year-`).
        public let descending: Bool
    }

    /// The keys, most significant first.
    public let keys: [Key]

    /// Parses keys as typed: one per element, or several in one separated by commas or
    /// spaces (`--sort 'year- title'`).
    public init(parsing specs: [String]) throws(AlbumKitError) {
        var keys: [Key] = []
        for spec in specs {
            for word in spec.split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
                let descending = word.hasSuffix("-")
                let name = word.hasSuffix("-") || word.hasSuffix("+") ? word.dropLast() : word
                guard let attribute = AlbumAttribute(name: String(name)) else {
                    throw AlbumQuery.invalid(
                        "unknown sort field '\(name)'\(AlbumAttribute.hint(for: String(name), also: "; each optionally followed by + or -"))")
                }
                keys.append(Key(attribute: attribute, descending: descending))
            }
        }
        self.keys = keys
    }

    /// The fields of the albums' details the keys compare (``AlbumAttribute/detail``).
    public var details: Set<AlbumField> { Set(keys.compactMap(\.attribute.detail)) }

    /// `albums` in this order (stable: equal albums keep their order).
    public func sorted(_ albums: [ListedAlbum]) -> [ListedAlbum] {
        guard !keys.isEmpty else { return albums }
        return albums.sorted { left, right in
            for key in keys {
                let order = Self.compare(left.text(of: key.attribute), right.text(of: key.attribute), numeric: key.attribute.order == .number)
                if order != .orderedSame { return key.descending ? order == .orderedDescending : order == .orderedAscending }
            }
            return left.position < right.position
        }
    }

    private static func compare(_ left: String, _ right: String, numeric: Bool) -> ComparisonResult {
        if left.isEmpty || right.isEmpty {
            return left.isEmpty == right.isEmpty ? .orderedSame : (left.isEmpty ? .orderedAscending : .orderedDescending)
        }
        if numeric, let a = Double(left), let b = Double(right) { return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending) }
        return left.compare(right, options: [.caseInsensitive, .diacriticInsensitive, .numeric])
    }
}
