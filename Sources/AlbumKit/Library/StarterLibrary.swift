import Foundation

/// The starter albums the binary carries (`Bundles/starter`, embedded at build time by the
/// EmbedStarterPlugin): its `albums.json` and covers.
public enum StarterLibrary {
    /// Stores the starter covers in `covers` and returns the starter albums as a snapshot.
    public static func load(into covers: any CoverStore) async throws -> LibrarySnapshot {
        guard let list = file("albums.json") else {
            throw AlbumKitError(.unsupported, "this albumkit binary carries no starter albums")
        }
        for (path, _) in StarterFiles.base64 where CoverReference.isInFolder(path) {
            guard let key = CoverKey(fileName: path), let bytes = file(path) else { continue }
            let stored = try await covers.put(bytes, fileExtension: key.fileExtension)
            guard stored == key else {
                throw AlbumKitError(.unreadableInput, "starter cover \(path) does not hash to its name")
            }
        }
        let records = try JSONFormat().decode([AlbumRecord].self, from: list)
        let albums = try records.enumerated().map { index, record in
            try record.validated(newID: .generate(), label: "starter albums.json #\(index + 1)")
        }
        return LibrarySnapshot(albums: albums)
    }

    private static func file(_ path: String) -> Data? {
        StarterFiles.base64[path].flatMap { Data(base64Encoded: $0) }
    }
}
