import AlbumKit
import AlbumKitTesting
import Foundation

/// A real beets library: tiny audio made by `sox`, encoded by `lame` and `flac`, tagged with
/// `mutagen`, imported by `beet import -A` (copying into beets's music directory, art found
/// by the `fetchart` plugin beside the tracks), then written out by `beet export`.
struct BeetsFixture {
    let folder: TemporaryFolder
    /// `$BEETSDIR`: `config.yaml` and `library.db`.
    var beetsDirectory: URL { folder.path("beets") }
    var database: URL { folder.path("beets/library.db") }
    /// beets's music directory, where the art ends up.
    var music: URL { folder.path("music") }
    /// `beet export -a` (albums, JSON).
    var albumExport: URL { folder.path("albums-export.json") }
    /// `beet export -l` (tracks with their library fields, JSON).
    var trackExport: URL { folder.path("tracks-export.json") }

    /// The bytes of the cover beside the first album's tracks.
    static let cover = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("the OK Computer cover".utf8)

    private static let script = #"""
        import os, subprocess, sys
        from mutagen.easyid3 import EasyID3
        from mutagen.flac import FLAC
        root = sys.argv[1]
        source = os.path.join(root, "in")
        wav = os.path.join(root, "tone.wav")
        subprocess.run(["sox", "-n", "-r", "8000", "-c", "1", wav, "synth", "0.2", "sine", "440"], check=True)
        albums = [
            ("radiohead", "mp3", {"artist": "Radiohead", "albumartist": "Radiohead", "album": "OK Computer", "date": "1997-05-21",
                                  "genre": "Alternative", "musicbrainz_albumid": "0b6b4ba0-d36f-47bd-b4ea-6a5b91842d29",
                                  "musicbrainz_releasegroupid": "b1392450-e666-3926-a536-22c65f834433", "organization": "Parlophone",
                                  "catalognumber": "NODATA 02", "releasecountry": "GB", "barcode": "724385522925", "media": "CD",
                                  "discnumber": "1"}, 2),
            ("bjork", "flac", {"artist": "Björk", "album": "Homogénic & Co", "date": "1997-09-22", "genre": "Electronic"}, 2),
            ("noyear", "mp3", {"artist": "No Year Band", "album": "Timeless"}, 1),
        ]
        for folder, kind, tags, count in albums:
            os.makedirs(os.path.join(source, folder))
            for number in range(1, count + 1):
                path = os.path.join(source, folder, "%02d.%s" % (number, kind))
                if kind == "mp3":
                    subprocess.run(["lame", "--quiet", "-b", "32", wav, path], check=True)
                    audio = EasyID3()
                else:
                    subprocess.run(["flac", "-s", "-f", "-o", path, wav], check=True)
                    audio = FLAC(path)
                for key, value in tags.items():
                    audio[key] = value
                audio["title"] = "Track %d" % number
                audio["tracknumber"] = str(number)
                audio.save(path) if kind == "mp3" else audio.save()
        with open(os.path.join(source, "radiohead", "cover.jpg"), "wb") as out:
            out.write(bytes.fromhex(sys.argv[2]))
        beets = os.path.join(root, "beets")
        os.makedirs(beets)
        with open(os.path.join(beets, "config.yaml"), "w") as out:
            out.write("directory: %s\nlibrary: %s\nimport:\n  copy: yes\n  write: no\n" % (os.path.join(root, "music"), os.path.join(beets, "library.db")))
            out.write("plugins: [export, fetchart]\nfetchart:\n  sources: [filesystem]\n  minwidth: 0\n  enforce_ratio: no\n")
        env = dict(os.environ, BEETSDIR=beets)
        for folder in ("radiohead", "bjork", "noyear"):
            subprocess.run(["beet", "import", "-A", "-q", os.path.join(source, folder)], check=True, env=env, capture_output=True)
        with open(os.path.join(root, "albums-export.json"), "w") as out:
            subprocess.run(["beet", "export", "-a"], check=True, env=env, stdout=out)
        with open(os.path.join(root, "tracks-export.json"), "w") as out:
            subprocess.run(["beet", "export", "-l"], check=True, env=env, stdout=out)
        """#

    /// Makes the library in a new temporary folder.
    init() throws {
        folder = try TemporaryFolder("beets")
        let hex = Self.cover.map { String(format: "%02x", $0) }.joined()
        let result = try runProgram("/usr/bin/env", ["python3", "-c", Self.script, folder.url.path, hex])
        guard result.status == 0 else { throw AlbumKitError(.fileSystem, "making the beets library failed: \(result.output)") }
    }

    /// Runs `beet ARGUMENTS` on this library.
    @discardableResult
    func beet(_ arguments: String...) throws -> (status: Int32, output: String) {
        try beet(arguments)
    }

    /// Runs `beet` with the arguments of a list.
    @discardableResult
    func beet(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try runProgram("/usr/bin/env", ["BEETSDIR=\(beetsDirectory.path)", "beet"] + arguments)
    }

    /// What `beet ls -a` lists, one album a row: id, album artist, album, year, first genre,
    /// MusicBrainz album id.
    func listedAlbums() throws -> [[String]] {
        let listed = try beet("ls", "-a", "-f", "$id\t$albumartist\t$album\t$year\t$genres\t$mb_albumid")
        guard listed.status == 0 else { throw AlbumKitError(.fileSystem, "beet ls failed: \(listed.output)") }
        return listed.output.split(separator: "\n").map { line in
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            fields[4] = fields[4].components(separatedBy: "; ").first ?? ""
            return fields
        }
    }
}
