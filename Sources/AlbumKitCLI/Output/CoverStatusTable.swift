import AlbumKit

/// `covers status`: each album's cover state, title, reference and last failure, as a table
/// fitted to the terminal like `list`'s, then the counts.
enum CoverStatusTable {
    /// The table's lines; `resolutions` (the memento's) gives the reason of a failed fetch,
    /// `lookups` what the lookup services of the chain answered about each album.
    static func render(
        _ albums: [ListedAlbum], resolutions: [String: CoverResolution], lookups: (Album) -> [(fetcher: String, answer: LookupAnswer?)],
        width: Int?, colour: Bool
    ) -> [String] {
        var table = TextTable(columns: [
            .init(header: "#", alignRight: true), .init(header: "COVER"), .init(header: "TITLE", shrinks: true),
            .init(header: "REFERENCE", shrinks: true), .init(header: "REASON", shrinks: true),
        ])
        table.append(albums.map { listed in
            let reference = listed.album.coverUrl ?? ""
            let reason = switch listed.cover {
            case .failed: resolutions[reference]?.failure ?? ""
            case .stored, .missing: lookupSource(listed.album, lookups(listed.album))
            case .none: lookupReasons(lookups(listed.album))
            }
            return [.init(String(listed.position)), AlbumTable.coverCell(listed.cover), .init(listed.album.title), .init(reference), .init(reason)]
        })
        return table.render(width: width, colour: colour)
    }

    /// `found by coverartarchive` when a lookup service gave the album's cover.
    private static func lookupSource(_ album: Album, _ answers: [(fetcher: String, answer: LookupAnswer?)]) -> String {
        guard let found = answers.first(where: { $0.answer?.cover.map(\.bundlePath) == album.coverUrl }) else { return "" }
        return "found by \(found.fetcher)"
    }

    /// Why the lookup services of the chain gave no cover: each one's answer, or that it was
    /// not asked yet (nothing when the chain has none that asks about the album).
    private static func lookupReasons(_ answers: [(fetcher: String, answer: LookupAnswer?)]) -> String {
        answers.map { "\($0.fetcher): \($0.answer.map { $0.reason ?? "found a cover" } ?? "not looked up yet")" }.joined(separator: "; ")
    }

    /// `stored 3, missing 1, failed 0, none 2`.
    static func summary(_ albums: [ListedAlbum]) -> String {
        let counts = Dictionary(grouping: albums, by: \.cover).mapValues(\.count)
        return [CoverState.stored, .missing, .failed, .none].map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ")
    }
}
