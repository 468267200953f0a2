import AlbumKit

/// An album's cover as `list` shows it: `stored`, `missing`, `failed` or `none`.
enum CoverState: String, Encodable {
    case stored, missing, failed, none

    /// The state of `album`'s cover in `store`.
    static func of(_ album: Album, in store: any CoverStore) async -> CoverState {
        guard let reference = album.coverUrl else { return .none }
        guard let key = CoverKey(fileName: reference) else { return .missing }
        return (try? await store.contains(key)) == true ? .stored : .missing
    }
}
