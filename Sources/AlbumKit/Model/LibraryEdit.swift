/// One primitive change to the ordered album list. Indexes are 0-based and valid at the
/// moment the edit is applied, so a list of edits replays in order and undoes in reverse.
///
/// Stored in `state.json` as `{"op":"insert","index":1,"album":{…}}`,
/// `{"op":"remove","index":1,"album":{…}}`, `{"op":"update","before":{…},"after":{…}}`,
/// `{"op":"move","id":"…","from":0,"to":3}`.
public enum LibraryEdit: Hashable, Sendable {
    case insert(Album, at: Int)
    case remove(Album, at: Int)
    /// Boxed (`indirect`), so that an edit takes the room of one album, not two: an import's
    /// 100 000 inserts are a list of edits.
    indirect case update(before: Album, after: Album)
    case move(AlbumID, from: Int, to: Int)

    /// The edit that takes this one back.
    public var inverse: LibraryEdit {
        switch self {
        case .insert(let album, let index): .remove(album, at: index)
        case .remove(let album, let index): .insert(album, at: index)
        case .update(let before, let after): .update(before: after, after: before)
        case .move(let id, let from, let to): .move(id, from: to, to: from)
        }
    }
}

extension LibraryEdit: Codable {
    private enum CodingKeys: String, CodingKey { case op, index, album, before, after, id, from, to }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .op) {
        case "insert":
            self = .insert(try container.decode(Album.self, forKey: .album), at: try container.decode(Int.self, forKey: .index))
        case "remove":
            self = .remove(try container.decode(Album.self, forKey: .album), at: try container.decode(Int.self, forKey: .index))
        case "update":
            self = .update(
                before: try container.decode(Album.self, forKey: .before),
                after: try container.decode(Album.self, forKey: .after))
        case "move":
            self = .move(
                try container.decode(AlbumID.self, forKey: .id), from: try container.decode(Int.self, forKey: .from),
                to: try container.decode(Int.self, forKey: .to))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .op, in: container, debugDescription: "unknown edit '\(other)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .insert(let album, let index), .remove(let album, let index):
            try container.encode(self.isInsert ? "insert" : "remove", forKey: .op)
            try container.encode(index, forKey: .index)
            try container.encode(album, forKey: .album)
        case .update(let before, let after):
            try container.encode("update", forKey: .op)
            try container.encode(before, forKey: .before)
            try container.encode(after, forKey: .after)
        case .move(let id, let from, let to):
            try container.encode("move", forKey: .op)
            try container.encode(id, forKey: .id)
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
        }
    }

    private var isInsert: Bool { if case .insert = self { true } else { false } }
}
