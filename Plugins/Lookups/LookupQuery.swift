import Foundation

/// What a lookup asks the services about: an album as plain values, so the clients stand
/// apart from the album model. Only what is known is set; the clients use what is there.
public struct LookupQuery: Sendable, Hashable {
    public var artist: String
    public var title: String
    /// The year of release (`1992`), when known.
    public var year: String?
    public var label: String?
    public var catalogNumber: String?
    public var barcode: String?
    /// The album's identities elsewhere, named as SPEC 1's `ids` names them: `musicbrainz`
    /// (a release MBID), `musicbrainzGroup`, `discogs` (a release id), `itunes`.
    public var ids: [String: String]

    public init(
        artist: String, title: String, year: String? = nil, label: String? = nil, catalogNumber: String? = nil,
        barcode: String? = nil, ids: [String: String] = [:]
    ) {
        self.artist = artist
        self.title = title
        self.year = year
        self.label = label
        self.catalogNumber = catalogNumber
        self.barcode = barcode
        self.ids = ids
    }

    /// `ids.musicbrainz` when it is an MBID.
    public var musicBrainzRelease: String? { ids["musicbrainz"].flatMap(MusicBrainzID.checked) }
    /// `ids.musicbrainzGroup` when it is an MBID.
    public var musicBrainzGroup: String? { ids["musicbrainzGroup"].flatMap(MusicBrainzID.checked) }
    /// `ids.discogs` when it is a release number.
    public var discogsRelease: String? { ids["discogs"].flatMap(DiscogsClient.checkedID) }
}

/// MusicBrainz identifiers (MBIDs): UUIDs, checked before they go into a URL's path.
public enum MusicBrainzID {
    /// `text` in lower case when it is a UUID (`8-4-4-4-12` hexadecimal digits), else nil.
    public static func checked(_ text: String) -> String? {
        let lower = text.lowercased()
        let groups = lower.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12], lower.allSatisfy({ $0 == "-" || $0.isHexDigit }) else { return nil }
        return lower
    }
}
