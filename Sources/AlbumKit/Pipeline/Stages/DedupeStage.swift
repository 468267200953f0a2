/// `dedupe`: finds albums the library (or an earlier album of the same import) already holds
/// — the same id, or for an album whose input gave no id the same artist, title and year,
/// ignoring case (SPEC 7) — and applies `--on-duplicate`: `skip` leaves the album out,
/// `replace` marks it to overwrite the held album's fields in its place, `keep` gives it a
/// new id so it is added as a copy.
public struct DedupeStage: ImportStage {
    private var policy = DuplicatePolicy.skip
    /// Every album held: the library's, then this import's as they pass, in that order.
    private var held: [Held] = []
    /// The place in ``held`` of the album holding each id. Places, not the albums themselves:
    /// a table of 100 000 albums grows to 262 144 slots, and each slot held an id, a title and
    /// an artist (14.7 MB), where it now holds an id and a place (5.2 MB).
    private var byID: [AlbumID: UInt32] = [:]
    /// The place in ``held`` of the first album held under each duplicate key, by the key's
    /// fingerprint (an import of 100 000 albums held 100 000 lower-cased key strings).
    private var byKey: [TextFingerprint: UInt32] = [:]

    /// An album already held, as messages name it.
    private struct Held {
        let id: AlbumID
        let title: String
        let artist: String
        let inLibrary: Bool
    }

    public init() {}

    public var name: String { "dedupe" }

    public mutating func begin(_ batch: StageBatch) async throws {
        policy = batch.options.onDuplicate
        held.reserveCapacity(batch.library.albums.count)
        byID.reserveCapacity(batch.library.albums.count)
        for album in batch.library.albums {
            hold(Held(id: album.id, title: album.title, artist: album.artist, inLibrary: true), key: TextFingerprint(album.duplicateKey))
        }
    }

    public mutating func process(_ item: ImportItem) async throws -> StageDecision {
        let record = item.record
        let key = TextFingerprint(Album.duplicateKey(artist: record.artist, title: record.title, year: record.year))
        let place = item.hadID ? record.id.flatMap { byID[$0] } : byKey[key]
        guard let place else {
            remember(item.record, key: key)
            return .pass(item)
        }
        let match = held[Int(place)]
        switch policy {
        case .skip:
            let whose = match.inLibrary ? "the library's" : "an earlier album of this import,"
            return .duplicate(reason: "duplicate of \(whose) '\(match.title)' by \(match.artist) (id \(match.id))")
        case .replace:
            var item = item
            item.record.id = match.id
            item.disposition = .replace(match.id)
            return .pass(item)
        case .keep:
            var item = item
            item.record.id = .generate()
            item.disposition = .copy
            remember(item.record, key: key)
            return .pass(item)
        }
    }

    private mutating func remember(_ record: AlbumRecord, key: TextFingerprint) {
        guard let id = record.id else { return }
        hold(Held(id: id, title: record.title, artist: record.artist, inLibrary: false), key: key)
    }

    /// Holds `album` under its id, and under `key` unless an earlier album holds that key.
    private mutating func hold(_ album: Held, key: TextFingerprint) {
        let place = UInt32(held.count)
        held.append(album)
        byID[album.id] = place
        if byKey[key] == nil { byKey[key] = place }
    }
}

extension ImportStageFactory {
    /// `dedupe`: duplicates by id, or by artist + title + year, handled as `--on-duplicate` says.
    public static let dedupe = ImportStageFactory(
        name: "dedupe", summary: "finds albums already held (same id, or same artist, title and year) and applies --on-duplicate"
    ) { _ in DedupeStage() }
}
