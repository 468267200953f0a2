import Foundation

/// A memento as a backend stored it, in either version: version 2 (``LibraryState``, the
/// steps stored apart) or version 1 (albumkit 0.1: the whole history inside, as in a bundle's
/// `state.json`). Backends upgrading an older library read it through here.
public enum StoredMemento {
    /// The memento in `data` (JSON) and, for version 1, the steps it carried with the ids the
    /// memento now gives them.
    public static func decode(_ data: Data) throws -> (state: LibraryState, carriedSteps: [Int64: HistoryStep]) {
        struct Version: Decodable { var version: Int? }
        if (try JSONDecoder().decode(Version.self, from: data)).version == StateFile.version {
            let (state, steps) = try JSONDecoder().decode(StateFile.self, from: data).memento()
            return (state, steps)
        }
        return (try JSONDecoder().decode(LibraryState.self, from: data), [:])
    }
}
