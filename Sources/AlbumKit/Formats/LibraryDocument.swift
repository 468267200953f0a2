/// The file a file-storage library is: `{"format":"albumkit-library","version":1,
/// "albums":[…],"state":{…}}` in JSON or the same keys in a property list.
struct LibraryDocument: Codable {
    static let formatName = "albumkit-library"
    static let currentVersion = 1

    var format: String
    var version: Int
    var albums: [Album]
    var state: LibraryState

    init(_ snapshot: LibrarySnapshot) {
        format = Self.formatName
        version = Self.currentVersion
        albums = snapshot.albums
        state = snapshot.state
    }

    var snapshot: LibrarySnapshot { LibrarySnapshot(albums: albums, state: state) }
}
