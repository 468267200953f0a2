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
            item.record = AlbumRecord(try item.record.validated(newID: .generate(), label: item.label))
            return .pass(item)
        } catch {
            return .fail(reason: error.description)
        }
    }
}

extension ImportStageFactory {
    /// `validate`: the field rules.
    public static let validate = ImportStageFactory(
        name: "validate", summary: "refuses albums that break the field rules; gives albums without an id one"
    ) { _ in ValidateStage() }
}
