import AlbumKit
import AlbumKitTesting
import Foundation

/// `Library.xml` files as iTunes writes them, made by Python's `plistlib` with iTunes's key
/// names: the header keys, `Tracks` keyed by Track ID, a `Playlists` array, `file://localhost`
/// locations percent-encoded, and (like iTunes) `&#38;` for an ampersand.
enum LibraryXMLFixture {
    /// One track: iTunes's keys (`Album`, `Artist`, `Year`, …) and their values; a `path`
    /// becomes its `Location`, a text `date:<ISO 8601>` a `<date>`, `data:<text>` a `<data>`.
    typealias Track = [String: any Sendable]

    private static let script = #"""
        import datetime, json, plistlib, sys, urllib.parse
        spec = json.load(open(sys.argv[1]))
        tracks = {}
        for index, fields in enumerate(spec["tracks"]):
            track_id = 1001 + 2 * index
            track = {"Track ID": track_id, "Name": "Track %d" % index, "Kind": "MPEG audio file", "Size": 4000000,
                     "Total Time": 215000, "Date Added": datetime.datetime(2020, 5, 1, 12, 0, 0),
                     "Bit Rate": 256, "Sample Rate": 44100, "Track Type": "File", "Persistent ID": "%016X" % (0xA1B2C3D4E5F60000 + index)}
            for key, value in fields.items():
                if key == "path":
                    track["Location"] = "file://localhost" + urllib.parse.quote(value)
                elif value is None:
                    track.pop(key, None)
                elif isinstance(value, str) and value.startswith("date:"):
                    track[key] = datetime.datetime.fromisoformat(value[5:])
                elif isinstance(value, str) and value.startswith("data:"):
                    track[key] = value[5:].encode()
                else:
                    track[key] = value
            tracks[str(track_id)] = track
        library = {"Major Version": 1, "Minor Version": 1, "Date": datetime.datetime(2024, 1, 2, 3, 4, 5),
                   "Application Version": "12.13.2.3", "Features": 5, "Show Content Ratings": True,
                   "Music Folder": "file://localhost/Users/me/Music/iTunes/iTunes%20Media/",
                   "Library Persistent ID": "0123456789ABCDEF", "Tracks": tracks,
                   "Playlists": [{"Name": "Library", "Master": True, "Playlist ID": 1, "Playlist Persistent ID": "FEDCBA9876543210",
                                  "All Items": True, "Playlist Items": [{"Track ID": int(t)} for t in tracks]}]}
        with open(sys.argv[2], "wb") as out:
            plistlib.dump(library, out, sort_keys=spec["sorted"])
        text = open(sys.argv[2], encoding="utf-8").read().replace("&amp;", "&#38;")
        open(sys.argv[2], "w", encoding="utf-8").write(text)
        """#

    /// Writes a library of `tracks` to `file`; `sorted` keys as `plistlib` sorts them by
    /// default (then `Playlists` comes before `Tracks`), or in iTunes's own order.
    static func write(_ tracks: [Track], to file: URL, sorted: Bool = true) throws {
        let spec = file.deletingLastPathComponent().appendingPathComponent(".spec-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: spec) }
        try JSONSerialization.data(withJSONObject: ["tracks": tracks, "sorted": sorted]).write(to: spec)
        let result = try runProgram("/usr/bin/env", ["python3", "-c", script, spec.path, file.path])
        guard result.status == 0 else { throw AlbumKitError(.fileSystem, "plistlib failed: \(result.output)") }
    }

    /// The bytes of a small JPEG (its magic is what covers are told by).
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("a tiny test cover".utf8)
}
