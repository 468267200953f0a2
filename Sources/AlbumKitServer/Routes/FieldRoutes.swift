import AlbumKit
import Hummingbird

/// `GET /api/fields`: the table of an album's fields (``AlbumField``), so that the page builds
/// its details and its form from the one place that knows them instead of a list of its own.
struct FieldRoutes: Sendable {
    func register(on router: Router<ServeContext>) {
        router.get("/api/fields") { _, _ in JSONBody.response(FieldsBody(fields: AlbumField.all.map(FieldBody.init))) }
    }
}

/// The answer of `GET /api/fields`: every field in the order `show` lists them.
struct FieldsBody: Encodable {
    let fields: [FieldBody]
}

/// One field: its name, its kind (how its value is shaped: `text`, `date`, `rating`,
/// `timestamp`, `notes`, `tags`, `ids`, `tracks`, `fields`, …), one line saying what it holds,
/// and whether every album has it.
struct FieldBody: Encodable {
    let name: String
    let kind: String
    let summary: String
    let core: Bool

    init(_ field: AlbumField) {
        name = field.name
        // A kind is a case without a payload: its description is its name.
        kind = String(describing: field.kind)
        summary = field.summary
        core = field.isCore
    }
}
