import AlbumKit
import Foundation

/// The Cover Art Archive (`<baseURL>/release/<mbid>`): the front image of a release or of
/// a release group, and the JSON listing of a release's images. Its image addresses answer
/// `307` to where the file lies (archive.org); the redirect is followed as every redirect
/// is, to allowed addresses only. It publishes no rate limit.
public struct CoverArtArchiveClient: Sendable {
    /// What the archive keeps images for.
    public enum Entity: String, Sendable {
        case release
        case releaseGroup = "release-group"
    }

    /// The connection, for its base URL and service name.
    public let connection: ServiceConnection

    /// The size of the front asked for: the archive's largest thumbnail (1200 pixels), about
    /// square like the original, but not an original of tens of megabytes.
    public static let frontSize = "front-1200"

    init(connection: ServiceConnection) { self.connection = connection }

    /// The front image of the release or release group `mbid`; nil when the archive has none.
    public func front(of entity: Entity, _ mbid: String) async throws -> Data? {
        try await connection.image(at: connection.url("/\(entity.rawValue)/\(try checked(mbid))/\(Self.frontSize)"), limited: true)
    }

    /// The listing of the images of the release or release group `mbid`; nil when the
    /// archive has none.
    public func listing(of entity: Entity, _ mbid: String) async throws -> CoverArtListing? {
        try await connection.json(CoverArtListing.self, at: connection.url("/\(entity.rawValue)/\(try checked(mbid))"))
    }

    private func checked(_ mbid: String) throws -> String {
        guard let id = MusicBrainzID.checked(mbid) else {
            throw AlbumKitError(.unreadableInput, "coverartarchive: '\(mbid)' is not a MusicBrainz identifier (MBID)")
        }
        return id
    }
}

/// The archive's listing of a release's images (`{"images": […], "release": "…"}`).
public struct CoverArtListing: Decodable, Sendable, Hashable {
    public let images: [CoverArtImage]
    /// The MusicBrainz page of the release the images belong to.
    public let release: String?

    /// The image marked front, if any.
    public var front: CoverArtImage? { images.first { $0.front == true } }
}

/// One image of a listing: its types, whether it is the front, its URL and its thumbnails
/// (`250`, `500`, `1200`, `small`, `large` → URL).
public struct CoverArtImage: Decodable, Sendable, Hashable {
    private let rawID: LenientText?
    public let types: [String]?
    public let front: Bool?
    public let back: Bool?
    public let approved: Bool?
    public let image: String?
    public let thumbnails: [String: String]?

    /// The image's id (a number the archive writes as a number or as text).
    public var id: String? { rawID?.value }

    enum CodingKeys: String, CodingKey {
        case types, front, back, approved, image, thumbnails
        case rawID = "id"
    }
}
