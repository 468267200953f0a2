/// The fields a table export writes (`export FILE.csv|FILE.jsonl --fields a,b,c`), by name as
/// queries and templates name them (``AlbumAttribute``: any field of ``AlbumField``'s table,
/// `ids.NAME`, a field of one's own), and how each is read from an album.
struct ExportedFields {
    /// The core fields of SPEC 1, written when no fields are asked for.
    static let core = AlbumField.core.map(\.name)

    /// The names, in the order asked for.
    let names: [String]
    private let attributes: [AlbumAttribute]

    /// The fields `names` asks for, the core ones when nil; an unknown name or one asked for
    /// twice is an error naming it (and the closest known name).
    init(_ names: [String]?) throws(AlbumKitError) {
        let names = names ?? Self.core
        guard !names.isEmpty else { throw AlbumKitError(.unsupported, "--fields: name at least one field (known: \(Self.core.joined(separator: ", ")))") }
        var seen = Set<String>()
        var attributes: [AlbumAttribute] = []
        for name in names {
            guard let attribute = AlbumAttribute(name: name), attribute != .position, attribute != .cover else {
                throw AlbumKitError(.unsupported, "--fields: no field '\(name)'\(AlbumAttribute.hint(for: name))")
            }
            guard seen.insert(name).inserted else { throw AlbumKitError(.unsupported, "--fields: '\(name)' is named twice") }
            attributes.append(attribute)
        }
        self.names = names
        self.attributes = attributes
    }

    /// The value of each field of `album` as a listing shows it (tags joined, tracks counted),
    /// in order; nil for one the album does not have (the core six but the cover it always has).
    func values(of album: Album) -> [String?] {
        let listed = ListedAlbum(position: 0, album: album, cover: .none)
        return attributes.map { attribute in
            let text = listed.text(of: attribute)
            if case .field(let field) = attribute.kind, field.isCore, field != .coverUrl { return text }
            return text.isEmpty ? nil : text
        }
    }
}
