import AlbumKit
import Foundation

/// The three file backends the core ships, by name, for parameterised tests.
enum FileBackendKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case json, plistXML, plistBinary

    var description: String { rawValue }

    func make(in folder: URL, lockTimeout: Double = 30) -> any StorageBackend {
        let covers = folder.appendingPathComponent("covers")
        let file = folder.appendingPathComponent(fileName)
        switch self {
        case .json: return FileStorage(file: file, format: JSONFormat(), coversFolder: covers, lockTimeout: lockTimeout)
        case .plistXML: return FileStorage(file: file, format: PropertyListFormat(binary: false), coversFolder: covers, lockTimeout: lockTimeout)
        case .plistBinary: return FileStorage(file: file, format: PropertyListFormat(binary: true), coversFolder: covers, lockTimeout: lockTimeout)
        }
    }

    var fileName: String { self == .json ? "library.json" : "library.plist" }
}

/// A snapshot of `count` plain albums.
func sampleAlbums(_ count: Int, prefix: String = "Album") -> [Album] {
    (1...max(count, 1)).prefix(count).map { index in
        try! Album(id: AlbumID("id-\(prefix)-\(index)"), title: "\(prefix) \(index)", artist: "Artist \(index)")
    }
}
