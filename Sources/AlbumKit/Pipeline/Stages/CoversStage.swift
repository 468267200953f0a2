/// `covers`: links each album to the cover bytes its input carried — by the bundle path it
/// names (`covers/<sha256>.<ext>`, whose bytes were checked against their name when read), or
/// by a URL the input's memento had resolved to carried bytes — so the commit stores exactly
/// the covers of the albums that arrive. A `covers/…` reference that neither the input nor the
/// library holds is a warning: the album comes in with its cover missing. The first
/// ``namedMissing`` such albums are named one warning each, the rest counted in one warning per
/// input at the end: a list of albums whose covers were left behind (a bundle's `albums.json`
/// alone) would otherwise hold a warning per album in memory until the import ends, and print
/// as many lines. Without this stage the covers an input carries would never reach the library.
public struct CoversStage: ImportStage {
    private var batch: StageBatch?
    /// How many albums lacking their cover have been named.
    private var named = 0
    /// The albums lacking their cover past those named, by input, in the order they came.
    private var unnamed: [(input: String, count: Int)] = []

    /// How many albums lacking their cover are named one warning each.
    public static let namedMissing = 20

    public init() {}

    public var name: String { "covers" }

    public mutating func begin(_ batch: StageBatch) async throws { self.batch = batch }

    public mutating func end(_ batch: StageBatch) async throws {
        for (input, count) in unnamed {
            batch.warn(
                count == 1
                    ? "\(input): 1 more album names a cover the input lacks; its cover is missing ('albumkit list cover:missing' lists them all)"
                    : "\(input): \(count) more albums name covers the input lacks; their covers are missing ('albumkit list cover:missing' lists them all)")
        }
    }

    public mutating func process(_ item: ImportItem) async throws -> StageDecision {
        guard let reference = item.record.coverUrl, let batch else { return .pass(item) }
        var item = item
        if let payload = batch.carriedCovers[reference] {
            item.cover = payload
        } else if CoverReference.isInFolder(reference) {
            item.cover = nil
            let stored = if let key = CoverKey(fileName: reference) { await batch.isStored(key) } else { false }
            if !stored { noteMissing(item, reference, batch) }
        }
        return .pass(item)
    }

    /// Names `item`, which lacks the cover `reference`, or counts it once enough are named.
    private mutating func noteMissing(_ item: ImportItem, _ reference: String, _ batch: StageBatch) {
        if named < Self.namedMissing {
            named += 1
            batch.warn("\(item.input): album '\(item.record.title)' names cover \(reference), which the input lacks; its cover is missing")
        } else if unnamed.last?.input == item.input {
            unnamed[unnamed.count - 1].count += 1
        } else {
            unnamed.append((item.input, 1))
        }
    }
}

extension ImportStageFactory {
    /// `covers`: links albums to the cover bytes their input carried.
    public static let covers = ImportStageFactory(
        name: "covers", summary: "links albums to the cover bytes their input carried, so the commit stores them"
    ) { _ in CoversStage() }
}
