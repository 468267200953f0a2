import AlbumKit

/// `covers status`: each album's cover state, title, reference and last failure, as a table
/// fitted to the terminal like `list`'s, then the counts.
enum CoverStatusTable {
    /// The table's lines; `resolutions` (the memento's) gives the reason of a failed fetch.
    static func render(_ albums: [ListedAlbum], resolutions: [String: CoverResolution], width: Int?, colour: Bool) -> [String] {
        var table = TextTable(columns: [
            .init(header: "#", alignRight: true), .init(header: "COVER"), .init(header: "TITLE", shrinks: true),
            .init(header: "REFERENCE", shrinks: true), .init(header: "REASON", shrinks: true),
        ])
        table.append(albums.map { listed in
            let reference = listed.album.coverUrl ?? ""
            let reason = listed.cover == .failed ? resolutions[reference]?.failure ?? "" : ""
            return [.init(String(listed.position)), AlbumTable.coverCell(listed.cover), .init(listed.album.title), .init(reference), .init(reason)]
        })
        return table.render(width: width, colour: colour)
    }

    /// `stored 3, missing 1, failed 0, none 2`.
    static func summary(_ albums: [ListedAlbum]) -> String {
        let counts = Dictionary(grouping: albums, by: \.cover).mapValues(\.count)
        return [CoverState.stored, .missing, .failed, .none].map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ")
    }
}
