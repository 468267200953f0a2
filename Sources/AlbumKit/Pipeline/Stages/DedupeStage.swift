/// `dedupe`: finds albums the library (or an earlier album of the same import) already holds
/// — the same id, or for an album whose input gave no id the same artist, title and year,
/// ignoring case (SPEC 7) — and applies `--on-duplicate`: `skip` leaves the album out,
/// `replace` marks it to overwrite the held album's fields in its place, `keep` gives it a
/// new id so it is added as a copy.
public struct DedupeStage: ImportStage {
    private var policy = DuplicatePolicy.skip
    private var byID: [AlbumID: Held] = [:]
    /// The first album held under each duplicate key, by the key's fingerprint (an import of
    /// 100 000 albums held 100 000 lower-cased key strings).
    private var byKey: [TextFingerprint: AlbumID] = [:]

    /// An album already held, as messages name it.
    private struct Held {
        let title: String
        let artist: String
        let inLibrary: Bool
    }

    public init() {}

    public var name: String { "dedupe" }

    public mutating func begin(_ batch: StageBatch) async throws {
        policy = batch.options.onDuplicate
        byID.reserveCapacity(batch.library.albums.count)
        for album in batch.library.albums {
            byID[album.id] = Held(title: album.title, artist: album.artist, inLibrary: true)
            let key = TextFingerprint(album.duplicateKey)
            if byKey[key] == nil { byKey[key] = album.id }
        }
    }

    public mutating func process(_ item: ImportItem) async throws -> StageDecision {
        let record = item.record
        let key = TextFingerprint(Album.duplicateKey(artist: record.artist, title: record.title, year: record.year))
        let match = item.hadID ? record.id.flatMap { id in byID[id] == nil ? nil : id } : byKey[key]
        guard let match, let held = byID[match] else {
            remember(item.record, key: key)
            return .pass(item)
        }
        switch policy {
        case .skip:
            let place = held.inLibrary ? "the library's" : "an earlier album of this import,"
            return .duplicate(reason: "duplicate of \(place) '\(held.title)' by \(held.artist) (id \(match))")
        case .replace:
            var item = item
            item.record.id = match
            item.disposition = .replace(match)
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
        byID[id] = Held(title: record.title, artist: record.artist, inLibrary: false)
        if byKey[key] == nil { byKey[key] = id }
    }
}

extension ImportStageFactory {
    /// `dedupe`: duplicates by id, or by artist + title + year, handled as `--on-duplicate` says.
    public static let dedupe = ImportStageFactory(
        name: "dedupe", summary: "finds albums already held (same id, or same artist, title and year) and applies --on-duplicate"
    ) { _ in DedupeStage() }
}
