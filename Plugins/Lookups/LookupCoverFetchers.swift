import AlbumKit
import Foundation
import Synchronization

extension LookupQuery {
    /// What `album` says of itself to the services: its artist, title, year, label, catalog
    /// number, barcode and `ids` — and, where `ids` does not name it, the identity a source
    /// gave the album as its id (`mb:<mbid>` → `musicbrainz`, `discogs:<id>` → `discogs`).
    public init(album: Album) {
        var ids = album.ids
        let id = album.id.rawValue
        for (prefix, name) in [("mb:", "musicbrainz"), ("discogs:", "discogs")] where id.hasPrefix(prefix) && ids[name] == nil {
            ids[name] = String(id.dropFirst(prefix.count))
        }
        self.init(
            artist: album.artist, title: album.title, year: album.year.isEmpty ? nil : album.year, label: album[.label],
            catalogNumber: album[.catalogNumber], barcode: album[.barcode], ids: ids)
    }
}

/// A cover fetcher that finds covers by album through the lookup services: its bytes are
/// what ``find(_:)`` finds.
public protocol LookupCoverFetcher: CoverFetcher {
    /// The services it asks.
    var services: LookupServices { get }
}

extension LookupCoverFetcher {
    public var findsByAlbum: Bool { true }

    public var requestCounts: [String: Int] { services.tally.byService }

    public func fetch(_ request: CoverFetchRequest) async throws -> Data? { try await find(request)?.bytes }

    public func shutdown() async { await services.shutdown() }
}

/// `coverartarchive`: the front of the album's MusicBrainz release, else of its release
/// group; an album with neither is first matched on MusicBrainz (a match counts at
/// `plugins.musicbrainz.minScore`), and the match is reported in the found `ids`.
public final class CoverArtArchiveFetcher: LookupCoverFetcher {
    public let services: LookupServices

    public init(services: LookupServices) { self.services = services }

    public var name: String { LookupSettings.coverArtArchive }

    /// The release, else the release group, it asks the archive about; else the MusicBrainz
    /// search it matches the album by.
    public func lookupKey(for album: Album) -> String? {
        let query = LookupQuery(album: album)
        if let release = query.musicBrainzRelease { return "release:\(release)" }
        if let group = query.musicBrainzGroup { return "release-group:\(group)" }
        return "search:\(MusicBrainzClient.searchText(for: query))"
    }

    public func find(_ request: CoverFetchRequest) async throws -> FoundCover? {
        guard let album = request.album else { return nil }
        var query = LookupQuery(album: album)
        var found: [String: String] = [:]
        if query.musicBrainzRelease == nil, query.musicBrainzGroup == nil {
            guard let match = try await services.musicBrainz.bestMatch(query) else {
                return FoundCover(bytes: nil, reason: "no match at MusicBrainz (score \(services.musicBrainz.minScore) or more)")
            }
            found["musicbrainz"] = match.id
            if let group = match.releaseGroup?.id { found["musicbrainzGroup"] = group }
            query.ids.merge(found) { old, _ in old }
        }
        var bytes: Data?
        if let release = query.musicBrainzRelease { bytes = try await services.coverArtArchive.front(of: .release, release) }
        if bytes == nil, let group = query.musicBrainzGroup { bytes = try await services.coverArtArchive.front(of: .releaseGroup, group) }
        return FoundCover(bytes: bytes, ids: found, reason: bytes == nil ? "no front image at the Cover Art Archive" : nil)
    }
}

/// `itunes`: the artwork, at 600×600, of the album the iTunes Search API finds by the
/// album's artist and title; its collection id is reported as the `itunes` id.
public final class ITunesCoverFetcher: LookupCoverFetcher {
    public let services: LookupServices

    public init(services: LookupServices) { self.services = services }

    public var name: String { LookupSettings.iTunes }

    /// The artist and title it searches the store by.
    public func lookupKey(for album: Album) -> String? { "search:\(album.artist) \(album.title)" }

    public func find(_ request: CoverFetchRequest) async throws -> FoundCover? {
        guard let album = request.album else { return nil }
        guard let found = try await services.iTunes.bestAlbum(for: LookupQuery(album: album)) else {
            return FoundCover(bytes: nil, reason: "no album of that artist and title in the iTunes Store")
        }
        let bytes = try await services.iTunes.artwork(of: found)
        return FoundCover(bytes: bytes, ids: found.collectionId.map { ["itunes": String($0)] } ?? [:], reason: bytes == nil ? "no artwork in the iTunes Store" : nil)
    }
}

/// `discogs`: the primary image of the album's Discogs release (its `discogs` id, or a
/// `discogs:` album id), with `plugins.discogs.token`. Without a token, Discogs is skipped.
public final class DiscogsCoverFetcher: LookupCoverFetcher {
    public let services: LookupServices
    /// Whether an album with a Discogs release went unasked for want of a token.
    private let skipped = Mutex(false)

    public init(services: LookupServices) { self.services = services }

    public var name: String { LookupSettings.discogs }

    /// Said once a round, not album by album.
    public var notes: [String] {
        skipped.withLock { $0 } ? ["discogs: skipped, plugins.\(LookupSettings.discogs).token is not set (a personal access token from Discogs' developer settings)"] : []
    }

    /// The release it asks Discogs about; nil without one, or without a token.
    public func lookupKey(for album: Album) -> String? {
        services.discogs == nil ? nil : LookupQuery(album: album).discogsRelease.map { "release:\($0)" }
    }

    public func find(_ request: CoverFetchRequest) async throws -> FoundCover? {
        guard let album = request.album, let id = LookupQuery(album: album).discogsRelease else { return nil }
        guard let discogs = services.discogs else {
            skipped.withLock { $0 = true }
            return nil
        }
        guard let release = try await discogs.release(id) else { return FoundCover(bytes: nil, reason: "no release \(id) at Discogs") }
        let bytes = try await discogs.primaryImage(of: release)
        return FoundCover(bytes: bytes, reason: bytes == nil ? "no image of release \(id) at Discogs" : nil)
    }
}

extension CoverFetcherFactory {
    /// `coverartarchive`: covers from the Cover Art Archive, matched on MusicBrainz.
    public static let coverArtArchive = CoverFetcherFactory(
        name: LookupSettings.coverArtArchive, summary: "the front from the Cover Art Archive, the album matched on MusicBrainz when it has no MBID"
    ) { context in CoverArtArchiveFetcher(services: try LookupServices(configuration: context.configuration)) }

    /// `itunes`: artwork from the iTunes Search API.
    public static let iTunesArtwork = CoverFetcherFactory(
        name: LookupSettings.iTunes, summary: "the artwork (600x600) of the album the iTunes Search API finds by artist and title"
    ) { context in ITunesCoverFetcher(services: try LookupServices(configuration: context.configuration)) }

    /// `discogs`: the primary image of the album's Discogs release.
    public static let discogsImages = CoverFetcherFactory(
        name: LookupSettings.discogs, summary: "the primary image of the album's Discogs release (needs plugins.discogs.token)"
    ) { context in DiscogsCoverFetcher(services: try LookupServices(configuration: context.configuration)) }
}
