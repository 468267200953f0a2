/// The memento: what survives a restart besides the albums — the current album, the
/// undo/redo history, the cover references fetching resolved, and what the lookup services
/// answered (SPEC 11).
///
/// The history is a list of ``HistoryRef``s, oldest first: each step itself is stored apart
/// (a row per step in a database, a journal file beside a library file) and read only by
/// `undo` and `redo`, so a command that does not walk the history never loads it. Stored as
/// `{"version":2,"current":ID|null,"undo":[{"id":…,"label":…}],"redo":[…],"nextStep":N,
/// "covers":{…},"lookups":{…}}` (`covers` and `lookups` left out when empty). A bundle's `state.json` is a ``StateFile``.
public struct LibraryState: Hashable, Sendable, Codable {
    /// The format version of the stored memento.
    public static let version = 2
    /// How many steps the history keeps unless told otherwise.
    public static let defaultHistoryLimit = 100

    /// The current album, if any.
    public var current: AlbumID?
    /// Steps that `undo` takes back, oldest first.
    public var undo: [HistoryRef]
    /// Steps that `redo` applies again, oldest first (the next redo is the last).
    public var redo: [HistoryRef]
    /// The id the next stored step gets.
    public var nextStep: Int64
    /// Remote and file cover references → what fetching them gave.
    public var covers: [String: CoverResolution]
    /// What each lookup service answered about an album's identity (the lookup cache), under
    /// ``LookupAnswer/key(fetcher:identity:)``.
    public var lookups: [String: LookupAnswer]

    public init(
        current: AlbumID? = nil, undo: [HistoryRef] = [], redo: [HistoryRef] = [], nextStep: Int64 = 1,
        covers: [String: CoverResolution] = [:], lookups: [String: LookupAnswer] = [:]
    ) {
        self.current = current
        self.undo = undo
        self.redo = redo
        self.nextStep = max(nextStep, (undo + redo).map(\.id).max().map { $0 + 1 } ?? 1)
        self.covers = covers
        self.lookups = lookups
    }

    private enum CodingKeys: String, CodingKey { case version, current, undo, redo, nextStep, covers, lookups }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decodeIfPresent(Int.self, forKey: .version) ?? Self.version
        guard version == Self.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "memento version \(version) is not supported here (expected \(Self.version))")
        }
        self.init(
            current: try container.decodeIfPresent(AlbumID.self, forKey: .current),
            undo: try container.decodeIfPresent([HistoryRef].self, forKey: .undo) ?? [],
            redo: try container.decodeIfPresent([HistoryRef].self, forKey: .redo) ?? [],
            nextStep: try container.decodeIfPresent(Int64.self, forKey: .nextStep) ?? 1,
            covers: try container.decodeIfPresent([String: CoverResolution].self, forKey: .covers) ?? [:],
            lookups: try container.decodeIfPresent([String: LookupAnswer].self, forKey: .lookups) ?? [:])
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
        try container.encode(nextStep, forKey: .nextStep)
        if !covers.isEmpty { try container.encode(covers, forKey: .covers) }
        if !lookups.isEmpty { try container.encode(lookups, forKey: .lookups) }
    }

    /// Every step the history names.
    public var stepIDs: [Int64] { (undo + redo).map(\.id) }

    /// This history with every step id at `from` or above (the ids a library that is about to
    /// be replaced may still name), `steps` keyed by the new ids: replacing a library file
    /// then never overwrites a step file the old library names, whenever a crash stops it.
    public func renumbered(from first: Int64, _ steps: [Int64: HistoryStep]) -> (LibraryState, [Int64: HistoryStep]) {
        guard let lowest = stepIDs.min(), lowest < first else { return (self, steps) }
        let shift = first - lowest
        var state = self
        state.undo = undo.map { HistoryRef(id: $0.id + shift, label: $0.label) }
        state.redo = redo.map { HistoryRef(id: $0.id + shift, label: $0.label) }
        state.nextStep = nextStep + shift
        return (state, Dictionary(uniqueKeysWithValues: steps.map { ($0.key + shift, $0.value) }))
    }

    /// Records a new step stored under a fresh id: it becomes the next undo, redo is cleared,
    /// and the oldest steps beyond `limit` are dropped. Returns the new step's id and the ids
    /// of the steps dropped (whose stored steps go).
    public mutating func record(_ label: String, limit: Int = defaultHistoryLimit) -> (id: Int64, dropped: [Int64]) {
        let id = nextStep
        nextStep += 1
        undo.append(HistoryRef(id: id, label: label))
        var dropped = redo.map(\.id)
        redo.removeAll()
        if undo.count > limit {
            dropped += undo.prefix(undo.count - limit).map(\.id)
            undo.removeFirst(undo.count - limit)
        }
        return (id, dropped)
    }

    /// A fresh id for a step (an undone step going to redo, or the reverse).
    public mutating func newStepID() -> Int64 {
        defer { nextStep += 1 }
        return nextStep
    }
}
