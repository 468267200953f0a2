/// The file a file-storage library is: `{"format":"albumkit-library","version":2,
/// "albums":[…],"state":{…memento…}}` in JSON or the same keys in a property list. The history
/// steps the memento names are stored in a journal beside it (``HistoryJournal``).
///
/// Version 1 (albumkit 0.1) kept the whole history inside `state` (its `undo` and `redo` lists
/// of changes, as a bundle's `state.json` does): such a file still loads, its steps read from
/// it, and its first save writes version 2 with the steps moved into the journal.
struct LibraryDocument: Encodable {
    static let formatName = "albumkit-library"
    static let currentVersion = 2

    var albums: [Album]
    /// Albums after `albums`, read from their scratch file as they are written (an import's).
    var appended: AlbumRun?
    var state: LibraryState

    init(_ snapshot: LibrarySnapshot, appending appended: AlbumRun? = nil) {
        albums = snapshot.albums
        self.appended = appended
        state = snapshot.state
    }

    private enum CodingKeys: String, CodingKey { case format, version, albums, state }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // An encoder holds the whole document anyway: the run is read whole.
        try container.encode(albums + (appended?.all() ?? []), forKey: .albums)
        try container.encode(Self.formatName, forKey: .format)
        try container.encode(state, forKey: .state)
        try container.encode(Self.currentVersion, forKey: .version)
    }
}

/// A library file as read: its albums and memento, and — for a version 1 file — the history
/// steps it carried inside.
struct LoadedLibraryDocument: Decodable, Sendable {
    var snapshot: LibrarySnapshot
    /// The steps of a version 1 file, by the ids its memento now gives them; empty for version 2.
    var carriedSteps: [Int64: HistoryStep] = [:]

    /// A document of `snapshot` (as written).
    init(snapshot: LibrarySnapshot) { self.snapshot = snapshot }

    /// A version 1 document: `albums`, and the memento `file` carries with its steps inside.
    init(albums: [Album], versionOneState file: StateFile) {
        let (state, steps) = file.memento()
        snapshot = LibrarySnapshot(albums: albums, state: state)
        carriedSteps = steps
    }

    private enum CodingKeys: String, CodingKey { case format, version, albums, state }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(String.self, forKey: .format)
        let version = try container.decode(Int.self, forKey: .version)
        guard format == LibraryDocument.formatName, (1...LibraryDocument.currentVersion).contains(version) else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "format '\(format)' version \(version) is not supported (this albumkit reads \(LibraryDocument.formatName) 1 to \(LibraryDocument.currentVersion))")
        }
        let albums = try container.decode([Album].self, forKey: .albums)
        if version == 1 {
            self.init(albums: albums, versionOneState: try container.decode(StateFile.self, forKey: .state))
        } else {
            self.init(snapshot: LibrarySnapshot(albums: albums, state: try container.decode(LibraryState.self, forKey: .state)))
        }
    }
}
