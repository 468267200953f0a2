import Foundation

/// What a lookup service (a cover fetcher that finds by album: the Cover Art Archive,
/// iTunes, Discogs; or an ``AlbumEnricher``) answered about one album's identity, and when — the lookup cache of
/// SPEC 11. Kept with the library under ``key(fetcher:identity:)`` — in a file library's
/// memento (``LibraryState/lookups``), in a table of their own in a database (read by key:
/// ``Library/lookupAnswers(_:)``) — and with `state.json` in backups.
/// Stored as `{"at":<seconds since 1970>,"cover":"<sha256>.<ext>","ids":{…}}` (found),
/// `{"album":{…},"at":…}` (an enricher found the album: its facts, as an album object),
/// `{"at":…,"missed":"reason","ids":{…}}` (found nothing: asked again after
/// `lookups.retryAfterDays`) or `{"at":…,"failed":"reason"}` (the service could not be
/// asked: asked again next time); `ids` left out when empty.
public struct LookupAnswer: Hashable, Sendable, Codable {
    /// When the service answered, to the second.
    public var at: Date
    /// The cover it gave, stored with the library.
    public var cover: CoverKey?
    /// The album as the service knows it, when an enricher (``AlbumEnricher``) asked.
    public var album: Album?
    /// The album's identities it found (`musicbrainz`, `itunes`…).
    public var ids: [String: String]
    /// Why it gave no cover, when it answered but had none that would do.
    public var missed: String?
    /// Why it could not be asked (a timeout, an error answer, garbage).
    public var failed: String?

    /// An answer given `at` (kept to the second, as it is stored).
    public init(
        at: Date, cover: CoverKey? = nil, album: Album? = nil, ids: [String: String] = [:], missed: String? = nil, failed: String? = nil
    ) {
        self.at = Date(timeIntervalSince1970: at.timeIntervalSince1970.rounded(.down))
        self.cover = cover
        self.album = album
        self.ids = ids
        self.missed = missed
        self.failed = failed
    }

    /// The key of `fetcher`'s answer about the album whose identity (what the fetcher asks
    /// by, ``CoverFetcher/lookupKey(for:)``) is `identity`.
    public static func key(fetcher: String, identity: String) -> String { "\(fetcher) \(identity)" }

    /// Whether the answer still stands at `now`, so the service is not asked again: a cover
    /// or an album found stands; a miss stands for `retryAfterDays`; a failure to ask does not stand.
    public func stands(at now: Date, retryAfterDays: Double) -> Bool {
        if cover != nil || album != nil { return true }
        if missed != nil { return now.timeIntervalSince(at) < retryAfterDays * 86_400 }
        return false
    }

    /// Why no cover came of it, or nil when one did.
    public var reason: String? { cover == nil ? missed ?? failed ?? "found no cover" : nil }

    private enum CodingKeys: String, CodingKey { case album, at, cover, ids, missed, failed }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            at: Date(timeIntervalSince1970: TimeInterval(try container.decode(Int64.self, forKey: .at))),
            cover: try container.decodeIfPresent(String.self, forKey: .cover).map { name in
                guard let key = CoverKey(fileName: name) else {
                    throw DecodingError.dataCorruptedError(forKey: .cover, in: container, debugDescription: "'\(name)' is not <sha256>.<ext>")
                }
                return key
            },
            album: try container.decodeIfPresent(Album.self, forKey: .album),
            ids: try container.decodeIfPresent([String: String].self, forKey: .ids) ?? [:],
            missed: try container.decodeIfPresent(String.self, forKey: .missed),
            failed: try container.decodeIfPresent(String.self, forKey: .failed))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Int64(at.timeIntervalSince1970), forKey: .at)
        try container.encodeIfPresent(cover?.fileName, forKey: .cover)
        try container.encodeIfPresent(album, forKey: .album)
        if !ids.isEmpty { try container.encode(ids, forKey: .ids) }
        try container.encodeIfPresent(missed, forKey: .missed)
        try container.encodeIfPresent(failed, forKey: .failed)
    }
}
