import AlbumKit
import Foundation

/// The Discogs API (`<baseURL>/releases/<id>`) with a personal token: a release's images,
/// genres, styles, labels and catalog numbers, formats, tracklist, country and date.
/// Discogs allows 60 requests a minute to a client with a token.
public struct DiscogsClient: Sendable {
    /// The connection, for its base URL and service name.
    public let connection: ServiceConnection
    private let token: String

    /// Discogs' published rate for a client with a token: 60 requests a minute.
    public static let requestsPerSecond = 1.0

    init(connection: ServiceConnection, token: String) {
        self.connection = connection
        self.token = token
    }

    /// `text` when it is a Discogs release number (digits, optionally after `r`), else nil.
    public static func checkedID(_ text: String) -> String? {
        let digits = text.hasPrefix("r") ? String(text.dropFirst()) : text
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return digits
    }

    /// The release `id`; nil when Discogs does not know it. A malformed id is an error.
    public func release(_ id: String) async throws -> DiscogsRelease? {
        guard let number = Self.checkedID(id) else {
            throw AlbumKitError(.unreadableInput, "discogs: '\(id)' is not a Discogs release number")
        }
        return try await connection.json(DiscogsRelease.self, at: connection.url("/releases/\(number)"), headers: [("Authorization", "Discogs token=\(token)")])
    }

    /// The release's primary image (else its first); nil when it has none or the image
    /// server answers 404.
    public func primaryImage(of release: DiscogsRelease) async throws -> Data? {
        guard let url = release.primaryImage?.uri else { return nil }
        return try await connection.image(at: url, limited: false)
    }
}

/// A Discogs release as `/releases/<id>` gives it. Every part but the id may be missing.
public struct DiscogsRelease: Decodable, Sendable, Hashable {
    public let id: Int
    public let title: String?
    public let artists: [DiscogsArtist]?
    public let year: Int?
    /// `1987`, `1987-11`, `1987-11-16`, or with `00` for an unknown month or day.
    public let released: String?
    public let country: String?
    public let genres: [String]?
    public let styles: [String]?
    public let labels: [DiscogsLabel]?
    public let formats: [DiscogsFormat]?
    public let tracklist: [DiscogsTrack]?
    public let images: [DiscogsImage]?
    public let identifiers: [DiscogsIdentifier]?

    /// The image typed `primary`, else the first.
    public var primaryImage: DiscogsImage? { images?.first { $0.type == "primary" } ?? images?.first }
}

/// An artist of a release: its name, the name as credited (`anv`) and the word joining it
/// to the next.
public struct DiscogsArtist: Decodable, Sendable, Hashable {
    public let name: String?
    public let anv: String?
    public let join: String?
}

/// A label of a release and the catalog number under it.
public struct DiscogsLabel: Decodable, Sendable, Hashable {
    public let name: String?
    public let catno: String?
}

/// A format of a release: `Vinyl`, 2 of them, `LP, Album, Reissue`.
public struct DiscogsFormat: Decodable, Sendable, Hashable {
    public let name: String?
    private let rawQuantity: LenientInt?
    public let descriptions: [String]?

    /// How many (Discogs writes it as text).
    public var quantity: Int? { rawQuantity?.value }

    enum CodingKeys: String, CodingKey {
        case name, descriptions
        case rawQuantity = "qty"
    }
}

/// A line of the tracklist: a track, or a heading (`type_` `heading`, `index`).
public struct DiscogsTrack: Decodable, Sendable, Hashable {
    public let position: String?
    public let type: String?
    public let title: String?
    /// `m:ss`, or empty.
    public let duration: String?

    enum CodingKeys: String, CodingKey {
        case position, title, duration
        case type = "type_"
    }
}

/// An image of a release: `primary` or `secondary`, its URL and size.
public struct DiscogsImage: Decodable, Sendable, Hashable {
    public let type: String?
    public let uri: String?
    public let uri150: String?
    public let width: Int?
    public let height: Int?
}

/// An identifier of a release (`Barcode`, `Matrix / Runout`).
public struct DiscogsIdentifier: Decodable, Sendable, Hashable {
    public let type: String?
    public let value: String?
}
