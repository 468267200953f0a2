/// What an import did, or — in a dry run — would do, album by album (`import --dry-run`,
/// `--dry-run --json`).
///
/// The JSON shape is stable: `{"plan":[{"outcome":…,"input":…,"label":…,"album":{"id",
/// "title","artist","genre","year","coverUrl"},"stage":…,"reason":…,"replaces":…}],
/// "summary":{"new":N,"duplicate":N,"replace":N,"copy":N,"dropped":N,"invalid":N}}`; `stage`,
/// `reason` and `replaces` are null where they do not apply.
public struct ImportPlan: Sendable, Hashable, Encodable {
    /// One album's fate.
    public struct Entry: Sendable, Hashable, Encodable {
        /// What happens to the album.
        public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
            /// Added as a new album.
            case new
            /// Left out as a duplicate (`--on-duplicate skip`).
            case duplicate
            /// Its fields replace those of an album the library holds.
            case replace
            /// Added as a copy under a new id (`--on-duplicate keep`).
            case copy
            /// A stage left it out.
            case dropped
            /// It breaks a rule (a real import stops here).
            case invalid
        }

        public var outcome: Outcome
        /// The input it came from.
        public var input: String
        /// How messages name it.
        public var label: String
        /// Its fields when the decision was made.
        public var album: AlbumRecord
        /// The stage that dropped it or found it invalid or a duplicate.
        public var stage: String?
        /// Why it was dropped, skipped or refused.
        public var reason: String?
        /// The id of the album it replaces.
        public var replaces: AlbumID?

        /// An entry for `item`.
        public init(_ outcome: Outcome, _ item: ImportItem, stage: String? = nil, reason: String? = nil) {
            self.outcome = outcome
            self.input = item.input
            self.label = item.label
            self.album = item.record
            self.stage = stage
            self.reason = reason
            if case .replace(let id) = item.disposition { replaces = id }
        }

        private enum CodingKeys: String, CodingKey { case outcome, input, label, album, stage, reason, replaces }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(outcome, forKey: .outcome)
            try container.encode(input, forKey: .input)
            try container.encode(label, forKey: .label)
            try container.encode(AlbumRecordJSON(album), forKey: .album)
            try container.encode(stage, forKey: .stage)
            try container.encode(reason, forKey: .reason)
            try container.encode(replaces, forKey: .replaces)
        }
    }

    /// Every album read, in input order.
    public var entries: [Entry] = []

    /// An empty plan.
    public init() {}

    /// How many entries have `outcome`.
    public func count(_ outcome: Entry.Outcome) -> Int { entries.lazy.filter { $0.outcome == outcome }.count }

    private enum CodingKeys: String, CodingKey { case plan, summary }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .plan)
        var summary: [String: Int] = [:]
        for outcome in Entry.Outcome.allCases { summary[outcome.rawValue] = count(outcome) }
        try container.encode(summary, forKey: .summary)
    }
}

/// An album record with every field present (`null` for no id or cover), as the plan shows it.
struct AlbumRecordJSON: Encodable {
    let record: AlbumRecord
    /// Whether the fields beyond the core six go too (not to a version 1 plugin).
    let everyField: Bool
    init(_ record: AlbumRecord, everyField: Bool = true) {
        self.record = record
        self.everyField = everyField
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AlbumCodingKey.self)
        try container.encode(record.id, forKey: AlbumCodingKey("id"))
        try container.encode(record.title, forKey: AlbumCodingKey("title"))
        try container.encode(record.artist, forKey: AlbumCodingKey("artist"))
        try container.encode(record.genre, forKey: AlbumCodingKey("genre"))
        try container.encode(record.year, forKey: AlbumCodingKey("year"))
        try container.encode(record.coverUrl, forKey: AlbumCodingKey("coverUrl"))
        if everyField { try AlbumCoding.encodeDetails(record, into: &container) }
    }
}
