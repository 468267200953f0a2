extension CoverState {
    /// What the memento alone tells of `album`'s cover: its state, and the key whose
    /// presence in the store decides between stored and missing (nil when the state is
    /// settled without the store: none, missing, failed).
    public static func judged(_ album: Album, resolutions: [String: CoverResolution]) -> (state: CoverState, key: CoverKey?) {
        guard let reference = album.cover else { return (.none, nil) }
        // A stored cover's name is its key: stored or missing, whatever a fetch of it recorded
        // in the memento (SPEC 3), and no string is made for it here (`list` judges every album).
        if case .stored = reference { return (.stored, reference.storedKey) }
        let resolution = resolutions[reference.text]
        guard let key = resolution?.key ?? reference.storedKey else {
            return (resolution?.failure == nil ? .missing : .failed, nil)
        }
        return (.stored, key)
    }

    /// How `album`'s cover stands, given the memento's reference → cover mapping and which
    /// keys the store holds: stored, missing (not fetched yet, or gone from the store),
    /// failed (the last fetch failed), or none.
    public init(of album: Album, resolutions: [String: CoverResolution], isStored: (CoverKey) -> Bool) {
        let (state, key) = Self.judged(album, resolutions: resolutions)
        self = key.map { isStored($0) ? .stored : .missing } ?? state
    }
}
