import AlbumKit
import Foundation
import Synchronization

/// `musicbrainz` for `enrich`: the album's MusicBrainz release (its `musicbrainz` id, else
/// the best release the search finds at `plugins.musicbrainz.minScore` or more), as an
/// album of its date, labels, catalog number, country, barcode, formats, genres, tracks and
/// ids.
public struct MusicBrainzEnricher: AlbumEnricher {
    public let services: LookupServices

    public init(services: LookupServices) { self.services = services }

    public var name: String { LookupSettings.musicBrainz }

    public var requestCounts: [String: Int] { services.tally.byService }

    /// The release it looks up, else the search it matches the album by.
    public func lookupKey(for album: Album) -> String? {
        let query = LookupQuery(album: album)
        return query.musicBrainzRelease.map { "release:\($0)" } ?? "search:\(MusicBrainzClient.searchText(for: query))"
    }

    public func lookUp(_ album: Album) async throws -> Album? {
        let query = LookupQuery(album: album)
        // A search result lacks the genres and the tracks: the match is looked up in full.
        var id = query.musicBrainzRelease
        if id == nil { id = try await services.musicBrainz.bestMatch(query)?.id }
        guard let id, let release = try await services.musicBrainz.release(id) else { return nil }
        return try Self.album(release, else: album)
    }

    /// `release` as an album (its title and artist, else `album`'s).
    static func album(_ release: MusicBrainzRelease, else album: Album) throws -> Album {
        let labels = release.labelInfo ?? []
        let genres = (release.genres ?? release.releaseGroup?.genres ?? []).sorted { ($0.count ?? 0) > ($1.count ?? 0) }.map(\.name)
        let media = release.media ?? []
        let tracks = media.flatMap { medium in
            (medium.tracks ?? []).map { track in
                Track(
                    title: track.title ?? track.recording?.title ?? "", number: track.position, disc: media.count > 1 ? medium.position : nil,
                    seconds: (track.length ?? track.recording?.length).map { Double($0) / 1000 },
                    ids: track.recording?.id.map { ["musicbrainz": $0] } ?? [:])
            }
        }
        var ids = ["musicbrainz": release.id]
        if let group = release.releaseGroup?.id { ids["musicbrainzGroup"] = group }
        return try Album.found(
            id: AlbumID("mb:\(release.id)"), title: release.title ?? album.title, artist: release.artist ?? album.artist,
            genre: genres.first ?? "",
            values: [
                .released: release.date ?? "", .label: joined(labels.compactMap(\.label?.name)),
                .catalogNumber: joined(labels.compactMap(\.catalogNumber)), .country: release.country ?? "",
                .barcode: release.barcode ?? "", .format: format(media.compactMap(\.format)),
            ],
            tags: Array(genres.dropFirst()), tracks: tracks, ids: ids)
    }

    /// Media formats as a source writes them: `2xCD`, `CD, DVD-Video`.
    static func format(_ formats: [String]) -> String {
        var counted: [(format: String, count: Int)] = []
        for format in formats {
            if let index = counted.firstIndex(where: { $0.format == format }) { counted[index].count += 1 } else { counted.append((format, 1)) }
        }
        return counted.map { $0.count > 1 ? "\($0.count)x\($0.format)" : $0.format }.joined(separator: ", ")
    }
}

/// `discogs` for `enrich`: the album's Discogs release (its `discogs` id, or a `discogs:`
/// album id) with `plugins.discogs.token`, as an album of its date, labels, catalog number,
/// country, barcode, formats, genres and styles, tracks and id. Without a token, skipped.
public final class DiscogsEnricher: AlbumEnricher {
    public let services: LookupServices
    /// Whether an album with a Discogs release went unasked for want of a token.
    private let skipped = Mutex(false)

    public init(services: LookupServices) { self.services = services }

    public var name: String { LookupSettings.discogs }

    public var requestCounts: [String: Int] { services.tally.byService }

    /// Said once a run, not album by album.
    public var notes: [String] {
        skipped.withLock { $0 } ? ["discogs: skipped, plugins.\(LookupSettings.discogs).token is not set (a personal access token from Discogs' developer settings)"] : []
    }

    /// The release it asks Discogs about; nil without one, or without a token.
    public func lookupKey(for album: Album) -> String? {
        guard let release = LookupQuery(album: album).discogsRelease else { return nil }
        guard services.discogs != nil else {
            skipped.withLock { $0 = true }
            return nil
        }
        return "release:\(release)"
    }

    public func lookUp(_ album: Album) async throws -> Album? {
        guard let id = LookupQuery(album: album).discogsRelease, let discogs = services.discogs,
            let release = try await discogs.release(id)
        else { return nil }
        return try Self.album(release, else: album)
    }

    /// `release` as an album (its title and artist, else `album`'s).
    static func album(_ release: DiscogsRelease, else album: Album) throws -> Album {
        let labels = release.labels ?? []
        let genres = release.genres ?? []
        // Each artist as credited (`anv`), then the word joining it to the next (`,` hugs the name).
        let artist = release.artists.map { artists in
            artists.map { artist in
                let join = artist.join ?? ""
                return ((artist.anv ?? "").isEmpty ? artist.name ?? "" : artist.anv ?? "") + (join.isEmpty ? "" : join == "," ? ", " : " \(join) ")
            }.joined()
        }
        let tracks = (release.tracklist ?? []).filter { ($0.type ?? "track") == "track" }.enumerated().map { index, track in
            Track(title: track.title ?? "", number: index + 1, seconds: seconds(track.duration ?? ""), fields: track.position.map { ["discogs.position": $0] } ?? [:])
        }
        return try Album.found(
            id: AlbumID("discogs:\(release.id)"), title: release.title ?? album.title,
            artist: artist.flatMap { $0.isEmpty ? nil : $0 } ?? album.artist, genre: genres.first ?? "",
            values: [
                .released: released(release), .label: joined(labels.compactMap(\.name)),
                .catalogNumber: joined(labels.compactMap(\.catno)), .country: release.country ?? "",
                .barcode: release.identifiers?.first { $0.type == "Barcode" }?.value ?? "",
                .format: (release.formats ?? []).map(format).joined(separator: ", "),
            ],
            tags: Array(genres.dropFirst()) + (release.styles ?? []), tracks: tracks, ids: ["discogs": String(release.id)])
    }

    /// The release date without Discogs' `00` for an unknown month or day; else its year.
    static func released(_ release: DiscogsRelease) -> String {
        guard let released = release.released else { return release.year.map(String.init) ?? "" }
        return released.split(separator: "-").prefix { $0 != "00" }.joined(separator: "-")
    }

    /// A format as Discogs' pages write it: `2xVinyl, LP, Album`.
    static func format(_ format: DiscogsFormat) -> String {
        let name = (format.quantity ?? 1) > 1 ? "\(format.quantity ?? 1)x\(format.name ?? "")" : format.name ?? ""
        return ([name] + (format.descriptions ?? [])).filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// `m:ss` (or `h:mm:ss`) as seconds; nil when empty or not a length.
    static func seconds(_ duration: String) -> Double? {
        let parts = duration.split(separator: ":").map { Int($0) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil }) else { return nil }
        return Double(parts.reduce(0) { $0 * 60 + ($1 ?? 0) })
    }
}

/// Texts joined as a source joins several (`Harvest, EMI`), each once, in order.
private func joined(_ texts: [String]) -> String {
    var seen = Set<String>()
    return texts.filter { !$0.isEmpty && seen.insert($0).inserted }.joined(separator: ", ")
}

extension AlbumEnricherFactory {
    /// `musicbrainz`: facts from the album's MusicBrainz release.
    public static let musicBrainzFacts = AlbumEnricherFactory(
        name: LookupSettings.musicBrainz, summary: "the album's MusicBrainz release (its id, else a search match at minScore)"
    ) { configuration in MusicBrainzEnricher(services: try LookupServices(configuration: configuration)) }

    /// `discogs`: facts from the album's Discogs release.
    public static let discogsFacts = AlbumEnricherFactory(
        name: LookupSettings.discogs, summary: "the album's Discogs release (needs plugins.discogs.token)"
    ) { configuration in DiscogsEnricher(services: try LookupServices(configuration: configuration)) }
}
