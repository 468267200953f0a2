/// The fields a table export writes (`export FILE.csv|FILE.jsonl --fields a,b,c`), by name,
/// and how each is read from an album: one place for the names a table may hold.
struct ExportedFields {
    /// The core fields of SPEC 1, written when no fields are asked for.
    static let core = ["id", "title", "artist", "genre", "year", "coverUrl"]

    /// The names, in the order asked for.
    let names: [String]

    /// The fields `names` asks for, the core ones when nil; an unknown name or one asked for
    /// twice is an error naming it (and the closest known name).
    init(_ names: [String]?) throws(AlbumKitError) {
        let names = names ?? Self.core
        guard !names.isEmpty else { throw AlbumKitError(.unsupported, "--fields: name at least one field (known: \(Self.core.joined(separator: ", ")))") }
        var seen = Set<String>()
        for name in names {
            guard Self.core.contains(name) else {
                throw AlbumKitError(.unsupported, "--fields: no field '\(name)'\(Suggestion.phrase(for: name, among: Self.core)); known: \(Self.core.joined(separator: ", "))")
            }
            guard seen.insert(name).inserted else { throw AlbumKitError(.unsupported, "--fields: '\(name)' is named twice") }
        }
        self.names = names
    }

    /// The value of each field of `album`, in order; nil for one the album does not have.
    func values(of album: Album) -> [String?] {
        names.map { name in
            switch name {
            case "id": album.id.rawValue
            case "title": album.title
            case "artist": album.artist
            case "genre": album.genre
            case "year": album.year
            default: album.coverUrl
            }
        }
    }
}
