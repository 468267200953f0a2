/// One output line per album shaped by placeholders: `$year $artist - $title`. A
/// placeholder is `$` and an attribute name (`$coverUrl`), or `${name}` when letters follow
/// it (`${title}s`) or it holds a dot (`${discogs.folder}`); `$$` is a dollar sign.
public struct AlbumTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case text(String)
        case attribute(AlbumAttribute)
    }

    let parts: [Part]

    /// Parses `template`; an unknown name or a stray `$` is an error that names it.
    public init(parsing template: String) throws(AlbumKitError) {
        var parts: [Part] = []
        var text = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            text += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            if rest.hasPrefix("$") {
                text += "$"
                rest = rest.dropFirst()
                continue
            }
            let name: Substring
            if rest.hasPrefix("{"), let close = rest.firstIndex(of: "}") {
                name = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
            } else {
                name = rest.prefix { $0.isASCII && $0.isLetter }
                rest = rest[name.endIndex...]
            }
            guard !name.isEmpty else {
                throw AlbumQuery.invalid("a '$' in the template '\(template)' must be followed by a field name, {name} or $")
            }
            guard let attribute = AlbumAttribute(name: String(name)) else {
                throw AlbumQuery.invalid("unknown field '$\(name)' in the template\(AlbumAttribute.hint(for: String(name), prefix: "$"))")
            }
            if !text.isEmpty { parts.append(.text(text)) }
            text = ""
            parts.append(.attribute(attribute))
        }
        text += rest
        if !text.isEmpty { parts.append(.text(text)) }
        self.parts = parts
    }

    /// The fields of the albums' details the placeholders name (``AlbumAttribute/detail``).
    public var details: Set<AlbumField> {
        Set(parts.compactMap { part in
            if case .attribute(let attribute) = part { attribute.detail } else { nil }
        })
    }

    /// The line for `listed`.
    public func render(_ listed: ListedAlbum) -> String {
        parts.reduce(into: "") { line, part in
            switch part {
            case .text(let text): line += text
            case .attribute(let attribute): line += listed.text(of: attribute)
            }
        }
    }
}
