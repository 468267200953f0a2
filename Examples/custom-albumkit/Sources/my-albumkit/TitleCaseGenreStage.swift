import AlbumKit

/// An import stage that writes every genre in title case ("art rock" → "Art Rock"), or in
/// capitals when `plugins.title-case-genre.style` is `upper`.
struct TitleCaseGenreStage: ImportStage {
    var name: String { "title-case-genre" }
    let upper: Bool

    mutating func process(_ item: ImportItem) async throws -> StageDecision {
        var item = item
        let genre = item.record.genre
        item.record.genre = upper ? genre.uppercased() : genre.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined(separator: " ")
        return .pass(item)
    }
}

extension ImportStageFactory {
    /// `title-case-genre`, with its one setting.
    static var titleCaseGenre: ImportStageFactory {
        ImportStageFactory(
            name: "title-case-genre", summary: "writes genres in title case", version: "1.0.0",
            settings: [SettingDeclaration("style", .choice(["title", "upper"]), default: .text("title"), "title (Art Rock) or upper (ART ROCK)")]
        ) { context in
            TitleCaseGenreStage(upper: context.settings.string("style") == "upper")
        }
    }
}
