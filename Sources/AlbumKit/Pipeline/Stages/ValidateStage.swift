/// `validate`: each album must obey the field rules of SPEC 1 (required title and artist, a
/// year of up to four digits, a cover reference of an allowed kind, no control characters,
/// fields of at most 64 KiB). It passes the album on with its fields as stored — trimmed, the
/// year as text — and an id when the input gave none. An album that breaks a rule fails the
/// import, naming the album and the field.
public struct ValidateStage: ImportStage {
    public init() {}

    public var name: String { "validate" }

    public mutating func process(_ item: ImportItem) async throws -> StageDecision {
        do {
            var item = item
            try item.check(givingID: true)
            return .pass(item)
        } catch {
            return .fail(reason: error.description)
        }
    }
}

extension ImportItem {
    /// The album the record makes, given `newID` when it has none: as it stands when it is
    /// checked already, else validated now (an error names the album and the field).
    func album(newID: @autoclosure () -> AlbumID) throws(AlbumKitError) -> Album {
        guard isChecked else { return try record.validated(newID: newID(), label: label) }
        return Album(
            checkedID: record.id ?? newID(), title: record.title, artist: record.artist, genre: record.genre, year: record.year,
            cover: record.cover, details: record.details)
    }

    /// Makes the record as the field rules leave it (trimmed, canonical) and marks it checked,
    /// or throws the first rule it breaks; `givingID`, a record without an id gets a new one,
    /// else its id stays as the input gave it (the reading check of another tool's record, before
    /// `dedupe` looks for an album without an id by its artist, title and year).
    mutating func check(givingID: Bool) throws(AlbumKitError) {
        guard !isChecked || (givingID && record.id == nil) else { return }
        let id = record.id
        record = AlbumRecord(try album(newID: givingID ? .generate() : Self.placeholderID))
        if !givingID { record.id = id }
        isChecked = true
    }

    /// The id a record without one is checked with when it is to keep none.
    private static let placeholderID = AlbumID(rawValue: "x")
}

extension ImportStageFactory {
    /// `validate`: the field rules.
    public static let validate = ImportStageFactory(
        name: "validate", summary: "refuses albums that break the field rules; gives albums without an id one"
    ) { _ in ValidateStage() }
}
