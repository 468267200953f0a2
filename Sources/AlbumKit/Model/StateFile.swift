/// A bundle's `state.json` (SPEC 5): the memento with every step of history written out —
/// `{"version":1,"current":ID|null,"undo":[step…],"redo":[step…],"covers":{…},"lookups":{…}}`,
/// oldest first, each step a ``HistoryStep`` (`covers` and `lookups` left out when empty). What `export` writes, `restore`
/// and `migrate` bring back exactly.
public struct StateFile: Hashable, Sendable, Codable {
    /// The format version of `state.json`.
    public static let version = 1

    /// The current album, if any.
    public var current: AlbumID?
    /// Steps `undo` takes back, oldest first.
    public var undo: [HistoryStep]
    /// Steps `redo` applies again, oldest first.
    public var redo: [HistoryStep]
    /// Remote and file cover references → what fetching them gave.
    public var covers: [String: CoverResolution]
    /// What the lookup services answered (``LibraryState/lookups``).
    public var lookups: [String: LookupAnswer]
    /// The ids a library gave the steps, when the file is that library's own storage (a
    /// bundle-backed library keeps them, so they stay stable); never in an exported bundle.
    public var stepIDs: StepIDs?

    /// The ids of a memento's steps, in the order of `undo` and `redo`, and the next id.
    public struct StepIDs: Hashable, Sendable, Codable {
        public var undo: [Int64]
        public var redo: [Int64]
        public var next: Int64
    }

    public init(
        current: AlbumID? = nil, undo: [HistoryStep] = [], redo: [HistoryStep] = [], covers: [String: CoverResolution] = [:],
        lookups: [String: LookupAnswer] = [:]
    ) {
        self.current = current
        self.undo = undo
        self.redo = redo
        self.covers = covers
        self.lookups = lookups
    }

    private enum CodingKeys: String, CodingKey { case version, current, undo, redo, covers, lookups, stepIDs = "albumkitStepIDs" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decodeIfPresent(Int.self, forKey: .version) ?? Self.version
        guard version == Self.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "state version \(version) is not supported (expected \(Self.version))")
        }
        current = try container.decodeIfPresent(AlbumID.self, forKey: .current)
        undo = try container.decodeIfPresent([HistoryStep].self, forKey: .undo) ?? []
        redo = try container.decodeIfPresent([HistoryStep].self, forKey: .redo) ?? []
        covers = try container.decodeIfPresent([String: CoverResolution].self, forKey: .covers) ?? [:]
        lookups = try container.decodeIfPresent([String: LookupAnswer].self, forKey: .lookups) ?? [:]
        stepIDs = try container.decodeIfPresent(StepIDs.self, forKey: .stepIDs)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.version, forKey: .version)
        try container.encode(current, forKey: .current)
        try container.encode(undo, forKey: .undo)
        try container.encode(redo, forKey: .redo)
        if !covers.isEmpty { try container.encode(covers, forKey: .covers) }
        if !lookups.isEmpty { try container.encode(lookups, forKey: .lookups) }
        try container.encodeIfPresent(stepIDs, forKey: .stepIDs)
    }

    /// The memento and the steps it names: with the ids ``stepIDs`` gives when it fits the
    /// steps, else ids 1, 2, … in order (undo, then redo).
    public func memento() -> (state: LibraryState, steps: [Int64: HistoryStep]) {
        var steps: [Int64: HistoryStep] = [:]
        let fits = stepIDs.map { $0.undo.count == undo.count && $0.redo.count == redo.count && Set($0.undo + $0.redo).count == undo.count + redo.count } ?? false
        var next: Int64 = 1
        func refs(_ list: [HistoryStep], _ ids: [Int64]?) -> [HistoryRef] {
            list.enumerated().map { index, step in
                let id = fits ? ids![index] : next
                next = max(next, id + 1)
                steps[id] = step
                return HistoryRef(id: id, label: step.label)
            }
        }
        let undoRefs = refs(undo, stepIDs?.undo)
        let redoRefs = refs(redo, stepIDs?.redo)
        let nextStep = fits ? max(next, stepIDs!.next) : next
        return (LibraryState(current: current, undo: undoRefs, redo: redoRefs, nextStep: nextStep, covers: covers, lookups: lookups), steps)
    }

    /// The file for `state` whose steps are `steps`.
    public init(_ state: LibraryState, steps: [Int64: HistoryStep]) throws(AlbumKitError) {
        func resolve(_ refs: [HistoryRef]) throws(AlbumKitError) -> [HistoryStep] {
            var result: [HistoryStep] = []
            for ref in refs {
                guard let step = steps[ref.id] else {
                    throw AlbumKitError(.libraryState, "history step \(ref.id) ('\(ref.label)') is named by the memento but not stored")
                }
                result.append(step)
            }
            return result
        }
        self.init(current: state.current, undo: try resolve(state.undo), redo: try resolve(state.redo), covers: state.covers, lookups: state.lookups)
    }

    /// This file with the ids `state` gives its steps (for a library's own storage).
    public func keepingIDs(of state: LibraryState) -> StateFile {
        var copy = self
        copy.stepIDs = StepIDs(undo: state.undo.map(\.id), redo: state.redo.map(\.id), next: state.nextStep)
        return copy
    }
}
