import AlbumKit
import Foundation

/// The MusicBrainz web service, version 2, in JSON (`<baseURL>/release/<mbid>?fmt=json`):
/// release and release-group lookups, and the release search with its score.
///
/// MusicBrainz allows one request a second from a client (`plugins.musicbrainz
/// .requestsPerSecond`), kept by the process's shared limiter, and asks every client to
/// name itself and a contact in its User-Agent (`lookups.userAgent`).
public struct MusicBrainzClient: Sendable {
    /// The connection, for its base URL and service name.
    public let connection: ServiceConnection
    /// A search result counts as the album only at or above this score (0–100).
    public let minScore: Int

    /// What a release lookup includes: its labels and catalog numbers, its media with
    /// tracks and recordings, its release group, its genres and its artists.
    public static let releaseIncludes = "labels+recordings+release-groups+genres+artist-credits"

    init(connection: ServiceConnection, minScore: Int) {
        self.connection = connection
        self.minScore = minScore
    }

    /// The release `mbid`; nil when MusicBrainz does not know it. A malformed MBID is an error.
    public func release(_ mbid: String) async throws -> MusicBrainzRelease? {
        let id = try checked(mbid)
        return try await connection.json(MusicBrainzRelease.self, at: connection.url("/release/\(id)", query: [("inc", Self.releaseIncludes), ("fmt", "json")]))
    }

    /// The release group `mbid`, with its genres; nil when MusicBrainz does not know it.
    public func releaseGroup(_ mbid: String) async throws -> MusicBrainzReleaseGroup? {
        let id = try checked(mbid)
        return try await connection.json(MusicBrainzReleaseGroup.self, at: connection.url("/release-group/\(id)", query: [("inc", "genres"), ("fmt", "json")]))
    }

    /// The releases a search by what `query` knows finds, best first, each with its score.
    public func searchReleases(_ query: LookupQuery, limit: Int = 10) async throws -> [MusicBrainzRelease] {
        let url = connection.url("/release", query: [("query", Self.searchText(for: query)), ("limit", String(limit)), ("fmt", "json")])
        let answer = try await connection.json(MusicBrainzSearchResult.self, at: url)
        return (answer?.releases ?? []).sorted { ($0.score ?? 0) > ($1.score ?? 0) }
    }

    /// The best release the search finds, when its score is at least ``minScore``.
    public func bestMatch(_ query: LookupQuery) async throws -> MusicBrainzRelease? {
        try await searchReleases(query).first.flatMap { ($0.score ?? 0) >= minScore ? $0 : nil }
    }

    /// The search in MusicBrainz's Lucene syntax: the title and the artist must match; the
    /// year, label, catalog number and barcode, where known, raise the score of the
    /// releases that have them (a label written another way does not hide the release).
    public static func searchText(for query: LookupQuery) -> String {
        var text = "release:\(phrase(query.title)) AND artist:\(phrase(query.artist))"
        let optional: [(String, String?)] = [
            ("date", query.year), ("label", query.label), ("catno", query.catalogNumber), ("barcode", query.barcode),
        ]
        for (field, value) in optional {
            if let value, !value.trimmingCharacters(in: .whitespaces).isEmpty { text += " \(field):\(phrase(value))" }
        }
        return text
    }

    /// `text` as a quoted Lucene phrase: inside quotes only `\` and `"` need escaping.
    static func phrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private func checked(_ mbid: String) throws -> String {
        guard let id = MusicBrainzID.checked(mbid) else {
            throw AlbumKitError(.unreadableInput, "musicbrainz: '\(mbid)' is not a MusicBrainz identifier (MBID)")
        }
        return id
    }
}

/// A MusicBrainz release as a lookup (with ``MusicBrainzClient/releaseIncludes``) or a
/// search (with its `score`) gives it. Every part but the id may be missing.
public struct MusicBrainzRelease: Decodable, Sendable, Hashable {
    public let id: String
    public let title: String?
    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
    public let date: String?
    /// An ISO 3166 code (`GB`) or MusicBrainz's `XE`, `XW`.
    public let country: String?
    public let barcode: String?
    public let status: String?
    public let artistCredit: [MusicBrainzArtistCredit]?
    public let labelInfo: [MusicBrainzLabelInfo]?
    public let media: [MusicBrainzMedium]?
    public let releaseGroup: MusicBrainzReleaseGroup?
    public let genres: [MusicBrainzGenre]?
    private let rawScore: LenientInt?

    /// How well a search result fits (0–100); nil for a lookup.
    public var score: Int? { rawScore?.value }

    /// The artist as the release credits it: each name followed by its join phrase.
    public var artist: String? { artistCredit.map(MusicBrainzArtistCredit.joined) }

    enum CodingKeys: String, CodingKey {
        case id, title, date, country, barcode, status, media, genres
        case artistCredit = "artist-credit"
        case labelInfo = "label-info"
        case releaseGroup = "release-group"
        case rawScore = "score"
    }
}

/// One artist of a credit (`artist-credit`), with the phrase that joins it to the next.
public struct MusicBrainzArtistCredit: Decodable, Sendable, Hashable {
    public let name: String?
    public let joinphrase: String?
    public let artist: MusicBrainzNamed?

    /// A credit as printed: `Simon & Garfunkel`, `Queen & David Bowie`.
    static func joined(_ credits: [MusicBrainzArtistCredit]) -> String {
        credits.map { ($0.name ?? $0.artist?.name ?? "") + ($0.joinphrase ?? "") }.joined()
    }
}

/// An entity MusicBrainz names by id and name (an artist, a label).
public struct MusicBrainzNamed: Decodable, Sendable, Hashable {
    public let id: String?
    public let name: String?
}

/// A label of a release and the catalog number under it.
public struct MusicBrainzLabelInfo: Decodable, Sendable, Hashable {
    public let catalogNumber: String?
    public let label: MusicBrainzNamed?

    enum CodingKeys: String, CodingKey {
        case label
        case catalogNumber = "catalog-number"
    }
}

/// A medium (disc, side) of a release: its format and its tracks.
public struct MusicBrainzMedium: Decodable, Sendable, Hashable {
    public let position: Int?
    public let format: String?
    public let title: String?
    public let trackCount: Int?
    public let tracks: [MusicBrainzTrack]?

    enum CodingKeys: String, CodingKey {
        case position, format, title, tracks
        case trackCount = "track-count"
    }
}

/// A track of a medium; `length` in milliseconds.
public struct MusicBrainzTrack: Decodable, Sendable, Hashable {
    public let id: String?
    /// As printed (`A1`, `3`).
    public let number: String?
    public let position: Int?
    public let title: String?
    public let length: Int?
    public let recording: MusicBrainzRecording?
}

/// The recording a track plays.
public struct MusicBrainzRecording: Decodable, Sendable, Hashable {
    public let id: String?
    public let title: String?
    public let length: Int?
}

/// A release group: the album across its releases.
public struct MusicBrainzReleaseGroup: Decodable, Sendable, Hashable {
    public let id: String
    public let title: String?
    public let primaryType: String?
    public let firstReleaseDate: String?
    public let genres: [MusicBrainzGenre]?

    enum CodingKeys: String, CodingKey {
        case id, title, genres
        case primaryType = "primary-type"
        case firstReleaseDate = "first-release-date"
    }
}

/// A genre with how many people voted for it.
public struct MusicBrainzGenre: Decodable, Sendable, Hashable {
    public let name: String
    public let count: Int?
}

/// The release search's answer.
struct MusicBrainzSearchResult: Decodable {
    let count: Int?
    let releases: [MusicBrainzRelease]?
}
