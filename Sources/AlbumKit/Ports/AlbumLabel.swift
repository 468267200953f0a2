/// Names an album an input gave in messages: `albums.json #3 'Low'`.
///
/// A list's labels are made when a message asks for one, from the list's name, the album's
/// number and its title as the input gave it: a label made for every album of an import would
/// be a string per album that no message reads. Any text is a label too (`"\(file) track 3"`).
public struct AlbumLabel: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    private enum Parts: Sendable {
        case text(String)
        case numbered(list: String, number: Int, title: String)
    }

    private let parts: Parts

    /// The label `text`.
    public init(_ text: String) { parts = .text(text) }

    /// The label `text`.
    public init(stringLiteral text: String) { parts = .text(text) }

    /// The label the interpolation spells.
    public init(stringInterpolation: DefaultStringInterpolation) { parts = .text(String(stringInterpolation: stringInterpolation)) }

    /// The album numbered `number` (from 1) in the list `list`, titled `title` there:
    /// `<list> #<number> '<title>'`, the title cut at 80 characters.
    public init(list: String, number: Int, title: String) { parts = .numbered(list: list, number: number, title: title) }

    /// The list, number and title of a list's label; nil for a label of any other text.
    package var numbered: (list: String, number: Int, title: String)? {
        if case .numbered(let list, let number, let title) = parts { (list, number, title) } else { nil }
    }

    /// The label as text.
    public var description: String {
        switch parts {
        case .text(let text): text
        case .numbered(let list, let number, let title): "\(list) #\(number) '\(title.prefix(80))'"
        }
    }

    /// Labels are the same when their text is.
    public static func == (left: AlbumLabel, right: AlbumLabel) -> Bool { left.description == right.description }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
