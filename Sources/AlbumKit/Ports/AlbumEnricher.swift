import Foundation

/// Finds what a lookup service knows of an album (its MusicBrainz release, its Discogs
/// release) as an album of the service's facts, from which `enrich` fills the album's empty
/// fields (SPEC 11). Enrichers are registered by name (``AdapterRegistry/registerEnricher(_:)``)
/// and asked in the order they were registered; an earlier one's facts win over a later's.
///
/// ## Implementation requirements
/// - ``lookupKey(for:)`` names what ``lookUp(_:)`` asks the service by, so the library
///   remembers the answer (``LookupAnswer``, under ``LookupAnswer/key(enricher:identity:)``)
///   and a later run, or `--offline`, does not ask again. Two albums with the same key get
///   the same answer.
/// - ``lookUp(_:)`` returns nil when the service knows no such album (a miss, asked again after
///   `lookups.retryAfterDays`), and throws an ``AlbumKitError`` saying why when the service
///   could not be asked (a timeout, an error answer, garbage: asked again next time).
/// - Every answer is untrusted input: the album returned holds only values that pass SPEC 1's
///   rules (build it with ``Album/found(id:title:artist:genre:values:tags:tracks:ids:)``, which
///   leaves out what does not).
public protocol AlbumEnricher: Sendable {
    /// The service it asks (`musicbrainz`, `discogs`), the name its answers are kept under.
    var name: String { get }
    /// What it asks the service by for `album` (`release:<mbid>`, a search); nil when it asks
    /// nothing about this album (no id it can use, no token).
    func lookupKey(for album: Album) -> String?
    /// The album as the service knows it, its `ids` naming the service's identities of it; nil
    /// when the service knows no such album.
    func lookUp(_ album: Album) async throws -> Album?
    /// How many requests it sent to each service it asks, for the summary.
    var requestCounts: [String: Int] { get }
    /// What it has to say once about the run, not album by album (a service skipped, and why).
    var notes: [String] { get }
}

extension AlbumEnricher {
    /// An enricher has nothing to say of a run unless it says otherwise.
    public var notes: [String] { [] }
}

/// Makes an enricher from the configuration; registered under its name.
public typealias AlbumEnricherFactory = AdapterFactory<Configuration, any AlbumEnricher>

extension LookupAnswer {
    /// The key of enricher `enricher`'s answer about the album whose identity (its
    /// ``AlbumEnricher/lookupKey(for:)``) is `identity`: apart from a cover fetcher's answers
    /// about the same release, which hold a cover and no facts.
    public static func key(enricher: String, identity: String) -> String { "enrich.\(enricher) \(identity)" }
}

extension Album {
    /// An album of what a service answered, keeping only values that pass SPEC 1's rules: a
    /// field, id or track list that would not is left out rather than failing the answer.
    /// `values` are ``AlbumField/scalars``' values by field.
    public static func found(
        id: AlbumID, title: String, artist: String, genre: String = "", values: [AlbumField: String] = [:],
        tags: [String] = [], tracks: [Track] = [], ids: [String: String] = [:]
    ) throws(AlbumKitError) -> Album {
        var details = AlbumDetails()
        for (field, value) in values where AlbumField.scalars.contains(field) {
            if let kept = try? field.canonical(value, album: title), !kept.isEmpty { details[field] = kept }
        }
        details.tags = Array(tags.filter { (try? FieldRules.text($0, field: "tags", album: title, required: false)) != nil }.prefix(AlbumLimits.tags))
        details.ids = ids.filter { AlbumField.isIDName($0.key) && (try? FieldRules.text($0.value, field: "ids", album: title, required: true)) != nil }
        var checkedTracks: [Track] = []
        for (index, track) in tracks.enumerated() {
            guard let checked = try? track.validated(album: { title }, position: index + 1) else { break }
            checkedTracks.append(checked)
        }
        if checkedTracks.count == tracks.count, tracks.count <= AlbumLimits.tracks { details.tracks = checkedTracks }
        let genre = (try? FieldRules.text(genre, field: "genre", album: title, required: false)) ?? ""
        return try Album(id: id, title: title, artist: artist, genre: genre, details: details)
    }
}

/// How `enrich` fills an album from what the services answered (SPEC 11).
public enum Enrichment {
    /// The fields enrich fills, in the order they are reported.
    public static let fields: [AlbumField] = [.genre, .year, .released, .label, .catalogNumber, .format, .country, .barcode, .tags, .tracks, .ids]

    /// One field enrich changes: its name (`label`, `ids.musicbrainz`) and its text before
    /// and after (as `list` shows it: tags joined by `, `, tracks as their count).
    public struct Change: Sendable, Hashable {
        public let field: String
        public let old: String
        public let new: String
    }

    /// What the services answered merged, earlier first: a later answer fills only what the
    /// earlier ones lack. Nil when there is none.
    public static func merged(_ answers: [Album]) -> Album? {
        guard var merged = answers.first else { return nil }
        for answer in answers.dropFirst() { merged = filled(merged, from: answer, overwrite: false).album }
        return merged
    }

    /// `album` with its empty ``fields`` (every one of them with `overwrite`) taken from
    /// `found`, and what changed. `ids` are filled name by name. A release date whose year is
    /// not the album's year is left out unless `overwrite` (the year follows the release
    /// date). Values that would break a rule of the album (its size) leave it as it was.
    public static func filled(_ album: Album, from found: Album, overwrite: Bool) -> (album: Album, changes: [Change]) {
        var details = album.details
        var genre = album.genre
        var year = album.year
        for field in fields {
            switch field.kind {
            case .text where field.isCore:
                if !found.genre.isEmpty, overwrite || genre.isEmpty { genre = found.genre }
            case .year:
                if !found.year.isEmpty, found[.released] == nil, overwrite || year.isEmpty { year = found.year }
            case .date:
                if let new = found[field], overwrite || (details[field] == nil && (year.isEmpty || new.hasPrefix(year))) {
                    details[field] = new
                    year = String(new.prefix(4))
                }
            case .tags:
                if !found.tags.isEmpty, overwrite || details.tags.isEmpty { details.tags = found.tags }
            case .tracks:
                if !found.tracks.isEmpty, overwrite || details.tracks.isEmpty { details.tracks = found.tracks }
            case .ids:
                for (name, value) in found.ids where overwrite || details.ids[name] == nil { details.ids[name] = value }
            default:
                if let new = found[field], overwrite || details[field] == nil { details[field] = new }
            }
        }
        guard
            let changed = try? Album(
                id: album.id, title: album.title, artist: album.artist, genre: genre, year: year, coverUrl: album.coverUrl, details: details)
        else { return (album, []) }
        return (changed, changes(from: album, to: changed))
    }

    /// The ``fields`` that differ between `old` and `new`, ids name by name.
    static func changes(from old: Album, to new: Album) -> [Change] {
        let before = ListedAlbum(position: 0, album: old, cover: .none)
        let after = ListedAlbum(position: 0, album: new, cover: .none)
        var changes: [Change] = []
        for field in fields {
            if field == .ids {
                for name in Set(old.ids.keys).union(new.ids.keys).sorted() where old.ids[name] != new.ids[name] {
                    changes.append(Change(field: "ids.\(name)", old: old.ids[name] ?? "", new: new.ids[name] ?? ""))
                }
                continue
            }
            guard let attribute = AlbumAttribute(name: field.name) else { continue }
            let (was, now) = (before.text(of: attribute), after.text(of: attribute))
            // Tracks show as their count: the same count of other tracks still changed.
            if was != now || (field == .tracks && old.tracks != new.tracks) { changes.append(Change(field: field.name, old: was, new: now)) }
        }
        return changes
    }

    /// What one album's lookups gave: the services' answers merged (nil: none knew it), the
    /// answers to remember, and why a service gave nothing.
    public struct Lookup: Sendable {
        public var found: Album?
        public var answers: [String: LookupAnswer] = [:]
        public var reasons: [String] = []
    }

    /// The keys under which `enrichers` keep their answers about `album`, in order.
    public static func lookupKeys(for album: Album, through enrichers: [any AlbumEnricher]) -> [String] {
        enrichers.compactMap { enricher in enricher.lookupKey(for: album).map { LookupAnswer.key(enricher: enricher.name, identity: $0) } }
    }

    /// Looks `album` up through `enrichers`, in order: an answer in `known` (the library's
    /// answers under ``lookupKeys(for:through:)``) that still stands is used as it is, else the service is asked — unless
    /// `offline`, when nothing is asked. New answers are keyed by the album's identity both as
    /// it was and with the ids found (as the next run sees it).
    public static func lookUp(
        _ album: Album, through enrichers: [any AlbumEnricher], known: [String: LookupAnswer], offline: Bool,
        retryAfterDays: Double, now: Date = Date()
    ) async -> Lookup {
        var result = Lookup()
        var answers: [Album] = []
        var asked: [(enricher: any AlbumEnricher, answer: LookupAnswer)] = []
        for enricher in enrichers {
            guard let identity = enricher.lookupKey(for: album) else { continue }
            if let answer = known[LookupAnswer.key(enricher: enricher.name, identity: identity)], answer.stands(at: now, retryAfterDays: retryAfterDays) {
                if let found = answer.album { answers.append(found) } else { result.reasons.append("\(enricher.name): \(answer.reason ?? "")") }
                continue
            }
            if offline {
                result.reasons.append("\(enricher.name): not looked up yet (offline)")
                continue
            }
            do {
                if let found = try await enricher.lookUp(album) {
                    answers.append(found)
                    asked.append((enricher, LookupAnswer(at: now, album: found)))
                } else {
                    result.reasons.append("\(enricher.name): found nothing")
                    asked.append((enricher, LookupAnswer(at: now, missed: "found nothing")))
                }
            } catch {
                result.reasons.append("\(enricher.name): \(error)")
                asked.append((enricher, LookupAnswer(at: now, failed: String(describing: error))))
            }
        }
        result.found = merged(answers)
        let seen = [album] + (result.found.map { [filled(album, from: $0, overwrite: false).album] } ?? [])
        for (enricher, answer) in asked {
            for identity in Set(seen.compactMap { enricher.lookupKey(for: $0) }) {
                result.answers[LookupAnswer.key(enricher: enricher.name, identity: identity)] = answer
            }
        }
        return result
    }
}

extension AdapterRegistry {
    /// The registered enrichers, made from `configuration`, in the order they were registered.
    public func makeEnrichers(_ configuration: Configuration) throws -> [any AlbumEnricher] {
        try enricherOrder.compactMap { enrichers[$0] }.map { try $0.make(configuration) }
    }
}
