import AlbumKitTesting
import Foundation
import Testing

/// One line of the plan `make-audio.py` writes audio from: a tagged track, a folder image
/// or a plain file.
struct PlanEntry: Encodable {
    /// An embedded picture: the seed of its PNG and its ID3/FLAC picture type (3 front cover,
    /// 4 back cover, 8 artist).
    struct Picture: Encodable {
        var seed: Int
        var type: Int
    }

    struct Tags: Encodable {
        var album: String?
        var albumartist: String?
        var artist: String?
        var genre: String?
        var date: String?
        var mbid: String?
        var title: String?
        var tracknumber: String?
        var discnumber: String?
        var label: String?
        var catalognumber: String?
        var barcode: String?
        var country: String?
        var media: String?
        var releasegroupid: String?
        var trackid: String?
        var comment: String?
        /// ReplayGain's track gain (`-6.50 dB`).
        var replaygain: String?
    }

    var path: String
    var format: String?
    var tags: Tags?
    /// The seed of an embedded front cover (a PNG).
    var cover: Int?
    var coverBytes: Int?
    var coverType: Int?
    /// More pictures the track embeds after its cover, each a PNG made from its seed.
    var pictures: [Picture]?
    /// The seed of a JPEG written as this file.
    var image: Int?
    /// Latin-1 text written as this file.
    var bytes: String?

    static func track(_ path: String, _ format: String, _ tags: Tags, cover: Int? = nil) -> PlanEntry {
        PlanEntry(path: path, format: format, tags: tags, cover: cover)
    }

    static func image(_ path: String, seed: Int) -> PlanEntry { PlanEntry(path: path, image: seed) }
}

/// Audio written by real encoders and tagged by mutagen, through `make-audio.py`, and the
/// archives real tools make of it.
struct AudioCorpus {
    /// Where each cover seed's bytes are stored once imported (`covers/<sha256>.<ext>`).
    struct CoverPaths: Decodable {
        let png: [String: String]
        let jpg: [String: String]

        func png(_ seed: Int) -> String? { png[String(seed)] }
        func jpg(_ seed: Int) -> String? { jpg[String(seed)] }
    }

    /// How the corpus is handed to `albumkit import`.
    enum Container: String, CaseIterable, Sendable, CustomStringConvertible {
        case folder, tar, tarGz = "tar.gz", tarZst = "tar.zst", zip, sevenZip = "7z"
        var description: String { rawValue }
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("make-audio.py")

    /// Writes `plan` into `folder/name` (encoded sound cached in `folder/cache`).
    static func write(_ plan: [PlanEntry], in folder: URL, name: String = "music") throws -> (url: URL, covers: CoverPaths) {
        let planFile = folder.appendingPathComponent("\(name)-plan.json")
        try JSONEncoder().encode(plan).write(to: planFile)
        let out = folder.appendingPathComponent(name)
        let run = try runProgram("/usr/bin/env", ["python3", script.path, folder.appendingPathComponent("cache").path, out.path, planFile.path])
        try #require(run.status == 0, "make-audio.py failed: \(run.output)")
        return (out, try JSONDecoder().decode(CoverPaths.self, from: Data(run.output.utf8)))
    }

    /// Packs `source` (a folder) as `container` next to it, with the tool people use for it;
    /// returns what to import.
    static func pack(_ source: URL, as container: Container) throws -> URL {
        guard container != .folder else { return source }
        let archive = source.deletingLastPathComponent().appendingPathComponent("\(source.lastPathComponent).\(container.rawValue)")
        let command: [String]
        switch container {
        case .folder: return source
        case .tar: command = ["tar", "-cf", archive.path, "-C", source.path, "."]
        case .tarGz: command = ["tar", "-czf", archive.path, "-C", source.path, "."]
        case .tarZst: command = ["tar", "--zstd", "-cf", archive.path, "-C", source.path, "."]
        case .sevenZip: command = ["7z", "a", "-bd", "-y", archive.path, "."]
        case .zip:
            command = [
                "python3", "-c",
                """
                import os, sys, zipfile
                with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                    for root, folders, files in os.walk("."):
                        for name in files:
                            z.write(os.path.join(root, name))
                """, archive.path,
            ]
        }
        let run = try runProgram("/usr/bin/env", command, in: source)
        try #require(run.status == 0, "\(command[0]) failed: \(run.output)")
        return archive
    }
}

/// An album as `albumkit list --json` prints it.
struct ListedAlbum: Decodable, Equatable {
    let id: String
    let title: String
    let artist: String
    let genre: String
    let year: String
    let coverUrl: String?
    let cover: String
}

extension CLIRunner {
    /// The library's albums, through `albumkit list --json`.
    func albums() throws -> [ListedAlbum] {
        struct Listing: Decodable { let albums: [ListedAlbum] }
        let result = try run("list", "--json")
        try #require(result.status == 0, "list failed: \(result.error)")
        return try JSONDecoder().decode(Listing.self, from: Data(result.output.utf8)).albums
    }

    /// Every file under the sandbox's library folder with its bytes, to tell that a command
    /// changed nothing.
    func librarySnapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = libraryFolder
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [:] }
        for case let url as URL in walk where !url.hasDirectoryPath {
            files[String(url.path.dropFirst(root.path.count))] = try Data(contentsOf: url)
        }
        return files
    }
}
