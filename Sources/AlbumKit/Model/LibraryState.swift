/// The memento: what survives a restart besides the albums — the current album and the
/// undo/redo history. `state.json` in a bundle is this value:
/// `{"version":1,"current":ID|null,"undo":[change…],"redo":[change…],"covers":{…}}`, oldest
/// first; `covers` (left out when empty) maps fetched cover references to their stored bytes.
public struct LibraryState: Hashable, Sendable, Codable {
    /// The format version of `state.json`.
    public static let version = 1
    /// How many steps the history keeps unless told otherwise.
    public static let defaultHistoryLimit = 100

    /// The current album, if any.
    public var current: AlbumID?
    /// Changes that `undo` takes back, oldest first.
    public var undo: [LibraryChange]
    /// Changes that `redo` applies again, oldest first (the next redo is the last).
    public var redo: [LibraryChange]
    /// Remote and file cover references → what fetching them gave.
    public var covers: [String: CoverResolution]

    public init(
        current: AlbumID? = nil, undo: [LibraryChange] = [], redo: [LibraryChange] = [],
        covers: [String: CoverResolution] = [:]
    ) {
        self.current = current
        self.undo = undo
        self.redo = redo
        self.covers = covers
    }

    private enum CodingKeys: String, CodingKey { case version, current, undo, redo, covers }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decodeIfPresent(Int.self, forKey: .version) ?? Self.version
        guard version == Self.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "state version \(version) is not supported (expected \(Self.version))")
        }
        current = try container.decodeIfPresent(AlbumID.self, forKey: .current)
        undo = try container.decodeIfPresent([LibraryChange].self, forKey: .undo) ?? []
        redo = try container.decodeIfPresent([LibraryChange].self, forKey: .redo) ?? []
        covers = try container.decodeIfPresent([String: CoverResolution].self, forKey: .covers) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.version, forKey: .version)
        if encoder.userInfo[.omitsNulls] as? Bool == true {
            try container.encodeIfPresent(current, forKey: .current)
        } else {
            try container.encode(current, forKey: .current)
        }
        try container.encode(undo, forKey: .undo)
        try container.encode(redo, forKey: .redo)
        if !covers.isEmpty { try container.encode(covers, forKey: .covers) }
    }

    /// Records a new change: it becomes the next undo, redo is cleared, and the oldest
    /// steps beyond `limit` are dropped.
    public mutating func record(_ change: LibraryChange, limit: Int = defaultHistoryLimit) {
        undo.append(change)
        if undo.count > limit { undo.removeFirst(undo.count - limit) }
        redo.removeAll()
    }
}
