import Foundation

/// `dedupe`: finds albums the library (or an earlier album of the same import) already holds
/// — the same id, or for an album whose input gave no id the same artist, title and year,
/// ignoring case (SPEC 7) — and applies `--on-duplicate`: `skip` leaves the album out,
/// `replace` marks it to overwrite the held album's fields in its place, `keep` gives it a
/// new id so it is added as a copy.
///
/// It remembers every album held by fingerprints of its id and duplicate key, each mapped to
/// the album's place: the library's albums first (read back from the batch's snapshot), then
/// this import's as they pass, whose id, title and artist wait in a scratch file for the
/// message of a duplicate: held as texts in memory, they would be most of a large import's
/// peak (BENCHMARKS.md).
public struct DedupeStage: ImportStage {
    private var policy = DuplicatePolicy.skip
    /// The library's albums, places 0 up to their count.
    private var library: [Album] = []
    /// This import's albums as they passed, in a scratch file (made for the first one).
    private var passed: Spilled<HeldAlbum>.Writer?
    /// Where each of this import's albums starts in ``passed``, by place past the library's.
    private var passedAt: [Int] = []
    /// The place of the album holding each id, by the id's fingerprint.
    private var byID = FingerprintTable()
    /// The place of the first album held under each duplicate key, by the key's fingerprint.
    private var byKey = FingerprintTable()

    public init() {}

    public var name: String { "dedupe" }

    public mutating func begin(_ batch: StageBatch) async throws {
        policy = batch.options.onDuplicate
        library = batch.library.albums
        byID = FingerprintTable(minimumCapacity: library.count + batch.albumCount)
        byKey = FingerprintTable(minimumCapacity: library.count + batch.albumCount)
        passedAt.reserveCapacity(batch.albumCount)
        for (place, album) in library.enumerated() {
            hold(place, id: album.id, key: TextFingerprint(album.duplicateKey))
        }
    }

    public mutating func process(_ item: ImportItem) async throws -> StageDecision {
        let record = item.record
        let key = TextFingerprint(Album.duplicateKey(artist: record.artist, title: record.title, year: record.year))
        let place = item.hadID ? record.id.flatMap { byID[TextFingerprint($0.rawValue)] } : byKey[key]
        guard let place else {
            try remember(item.record, key: key)
            return .pass(item)
        }
        let match = try held(at: Int(place))
        switch policy {
        case .skip:
            let whose = Int(place) < library.count ? "the library's" : "an earlier album of this import,"
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
            try remember(item.record, key: key)
            return .pass(item)
        }
    }

    private mutating func remember(_ record: AlbumRecord, key: TextFingerprint) throws {
        guard let id = record.id else { return }
        if passed == nil { passed = try Spilled.Writer(in: ScratchFolder.current) }
        passedAt.append(try passed!.append(HeldAlbum(id: id, title: record.title, artist: record.artist)))
        hold(library.count + passedAt.count - 1, id: id, key: key)
    }

    /// Holds the album at `place` under its id, and under `key` unless an earlier album holds that key.
    private mutating func hold(_ place: Int, id: AlbumID, key: TextFingerprint) {
        byID[TextFingerprint(id.rawValue)] = UInt32(place)
        if byKey[key] == nil { byKey[key] = UInt32(place) }
    }

    /// The album held at `place`, as messages name it.
    private func held(at place: Int) throws -> HeldAlbum {
        guard place >= library.count else {
            let album = library[place]
            return HeldAlbum(id: album.id, title: album.title, artist: album.artist)
        }
        return try passed!.value(at: passedAt[place - library.count])
    }
}

/// An album `dedupe` holds, as its messages name it.
private struct HeldAlbum: Spillable {
    let id: AlbumID
    let title: String
    let artist: String

    init(id: AlbumID, title: String, artist: String) {
        self.id = id
        self.title = title
        self.artist = artist
    }

    func spill(into encoder: inout SpillEncoder) {
        encoder.text(id.rawValue)
        encoder.text(title)
        encoder.text(artist)
    }

    init(unspilling decoder: inout SpillDecoder) throws {
        self.init(id: AlbumID(try decoder.text()), title: try decoder.text(), artist: try decoder.text())
    }
}

extension ImportStageFactory {
    /// `dedupe`: duplicates by id, or by artist + title + year, handled as `--on-duplicate` says.
    public static let dedupe = ImportStageFactory(
        name: "dedupe", summary: "finds albums already held (same id, or same artist, title and year) and applies --on-duplicate"
    ) { _ in DedupeStage() }
}
