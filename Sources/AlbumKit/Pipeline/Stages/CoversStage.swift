/// `covers`: links each album to the cover bytes its input carried — by the bundle path it
/// names (`covers/<sha256>.<ext>`, whose bytes were checked against their name when read), or
/// by a URL the input's memento had resolved to carried bytes — so the commit stores exactly
/// the covers of the albums that arrive. A `covers/…` reference that neither the input nor the
/// library holds is a warning: the album comes in with its cover missing (the first
/// ``namedMissing`` named one warning each, the rest counted at the end: `MissingCoverWarnings`).
/// Without this stage the covers an input carries would never reach the library.
public struct CoversStage: ImportStage {
    private var batch: StageBatch?
    /// The albums lacking their cover, named or counted.
    private var missing = MissingCoverWarnings()

    /// How many albums lacking their cover are named one warning each.
    public static let namedMissing = MissingCoverWarnings.named

    public init() {}

    public var name: String { "covers" }

    public mutating func begin(_ batch: StageBatch) async throws { self.batch = batch }

    public mutating func end(_ batch: StageBatch) async throws {
        for warning in missing.counted { batch.warn(warning) }
    }

    public mutating func process(_ item: ImportItem) async throws -> StageDecision {
        guard let reference = item.record.coverUrl, let batch else { return .pass(item) }
        var item = item
        if let payload = batch.carriedCovers[reference] {
            item.cover = payload
        } else if CoverReference.isInFolder(reference) {
            item.cover = nil
            let stored = if let key = CoverKey(fileName: reference) { await batch.isStored(key) } else { false }
            if !stored, let warning = missing.note(input: item.input, title: item.record.title, reference: reference) {
                batch.warn(warning)
            }
        }
        return .pass(item)
    }
}

extension ImportStageFactory {
    /// `covers`: links albums to the cover bytes their input carried.
    public static let covers = ImportStageFactory(
        name: "covers", summary: "links albums to the cover bytes their input carried, so the commit stores them"
    ) { _ in CoversStage() }
}
