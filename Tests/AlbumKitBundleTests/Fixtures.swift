@testable import AlbumKit
import AlbumKitBundle
import AlbumKitInstalled
import AlbumKitTesting
import Foundation

/// A fresh folder for one test, removed by `remove()`.
struct Workspace {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("albumkit-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ component: String) -> URL { url.appendingPathComponent(component) }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Every file below `folder`, by relative path, with its bytes (links as their target).
    static func contents(of folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let relative = enumerator?.nextObject() as? String {
            let url = folder.appendingPathComponent(relative)
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
                result[relative] = Data(("link:" + target).utf8)
            } else if let data = try? Data(contentsOf: url) {
                result[relative] = data
            } else {
                result[relative + "/"] = Data()
            }
        }
        return result
    }
}

/// One entry of an archive that Python's `tarfile`/`zipfile` writes for a test.
struct TestEntry {
    enum Kind {
        case file(Data)
        case zeros(Int)
        case symlink(String)
        case hardlink(String)
        case device
        case fifo
        case directory
    }

    var name: [UInt8]
    var kind: Kind

    init(_ name: String, _ kind: Kind) {
        self.name = Array(name.utf8)
        self.kind = kind
    }

    init(rawName: [UInt8], _ kind: Kind) {
        name = rawName
        self.kind = kind
    }

    static func file(_ name: String, _ text: String) -> TestEntry { TestEntry(name, .file(Data(text.utf8))) }

    fileprivate var json: [String: Any] {
        var object: [String: Any] = ["name_hex": name.map { String(format: "%02x", $0) }.joined()]
        switch kind {
        case .file(let data): object["type"] = "file"; object["data"] = data.base64EncodedString()
        case .zeros(let size): object["type"] = "zeros"; object["size"] = size
        case .symlink(let target): object["type"] = "symlink"; object["link"] = target
        case .hardlink(let target): object["type"] = "hardlink"; object["link"] = target
        case .device: object["type"] = "chr"
        case .fifo: object["type"] = "fifo"
        case .directory: object["type"] = "dir"
        }
        return object
    }
}

/// Archives written by Python (`tarfile`, `zipfile`), never by AlbumKit's own writer.
enum PythonArchive {
    /// `tar`, `tgz`, `txz`, `tbz2` or `zip`.
    static func write(_ entries: [TestEntry], kind: String, to output: URL, gnu: Bool = false) throws {
        let spec: [String: Any] = ["output": output.path, "kind": kind, "gnu": gnu, "entries": entries.map(\.json)]
        let specFile = output.deletingLastPathComponent().appendingPathComponent(".spec-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specFile)
        defer { try? FileManager.default.removeItem(at: specFile) }
        let result = try runProgram("/usr/bin/env", ["python3", "-c", script, specFile.path])
        guard result.status == 0 else { throw FixtureError("python failed: \(result.output)") }
    }

    private static let script = #"""
import base64, io, json, sys, tarfile, zipfile
spec = json.load(open(sys.argv[1]))
class Zeros(io.RawIOBase):
    def __init__(self, size): self.left = size
    def readable(self): return True
    def readinto(self, b):
        n = min(len(b), self.left); b[:n] = bytes(n); self.left -= n; return n
def name(e): return bytes.fromhex(e["name_hex"]).decode("utf-8", "surrogateescape")
entries = spec["entries"]
if spec["kind"] == "zip":
    with zipfile.ZipFile(spec["output"], "w", zipfile.ZIP_DEFLATED) as z:
        for e in entries:
            z.writestr(zipfile.ZipInfo(name(e)), base64.b64decode(e.get("data", "")))
else:
    mode = {"tar": "w", "tgz": "w:gz", "txz": "w:xz", "tbz2": "w:bz2"}[spec["kind"]]
    fmt = tarfile.GNU_FORMAT if spec["gnu"] else tarfile.PAX_FORMAT
    with tarfile.open(spec["output"], mode, format=fmt, encoding="utf-8", errors="surrogateescape") as t:
        for e in entries:
            info = tarfile.TarInfo(name(e)); info.mode = 0o644; kind = e["type"]
            if kind == "file":
                data = base64.b64decode(e["data"]); info.size = len(data); t.addfile(info, io.BytesIO(data))
            elif kind == "zeros":
                info.size = e["size"]; t.addfile(info, io.BufferedReader(Zeros(e["size"])))
            else:
                info.type = {"symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE, "chr": tarfile.CHRTYPE,
                             "fifo": tarfile.FIFOTYPE, "dir": tarfile.DIRTYPE}[kind]
                info.linkname = e.get("link", ""); info.devmajor = 1; info.devminor = 3
                if kind == "dir": info.mode = 0o755
                t.addfile(info)
"""#
}

/// Runs a tool that makes a fixture (`tar`, `7z`, `zstd`, …) in `folder`; its failure fails the test.
func tool(_ executable: String, _ arguments: [String], in folder: URL) throws {
    let result = try runProgram(executable, arguments, in: folder)
    guard result.status == 0 else { throw FixtureError("\(executable) \(arguments): \(result.output)") }
}

/// A test setup step that failed.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A sound bundle's files, made by the test: albums with unicode, covers, checksums.
struct SampleBundle {
    var albums: [[String: Any]] = []
    var covers: [String: Data] = [:]
    var manifest: [String: Any]
    var state: Data?

    /// `count` albums, every third with one of `coverCount` covers.
    init(albums count: Int = 6, covers coverCount: Int = 3) {
        for index in 0..<coverCount {
            let bytes = Data((0..<(2000 + index * 10)).map { UInt8(truncatingIfNeeded: $0 &* (index + 7)) })
            covers["covers/\(SHA256Digest.hex(of: bytes)).png"] = bytes
        }
        let names = covers.keys.sorted()
        for index in 0..<count {
            var album: [String: Any] = [
                "id": "sample-\(index)", "title": "Título \(index) – 東京", "artist": "Artïst \(index % 3)",
                "genre": "Pop", "year": index % 2 == 0 ? 1990 + index : "",
            ]
            if !names.isEmpty, index % 3 == 0 { album["coverUrl"] = names[(index / 3) % names.count] }
            albums.append(album)
        }
        manifest = ["format": "albumkit-bundle", "version": 1, "created": "2026-01-01T00:00:00Z", "generator": "test", "albumCount": count]
    }

    /// The files in bundle order: manifest, albums.json, covers, checksums (each optional part as set).
    func entries(checksums: Bool = true, manifest includeManifest: Bool = true) throws -> [TestEntry] {
        var files: [(String, Data)] = []
        if includeManifest { files.append(("manifest.json", try JSONSerialization.data(withJSONObject: manifest))) }
        files.append(("albums.json", try JSONSerialization.data(withJSONObject: albums)))
        if let state { files.append(("state.json", state)) }
        files += covers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if checksums {
            let lines = files.map { "\(SHA256Digest.hex(of: $0.1))  \($0.0)\n" }.joined()
            files.append(("checksums.sha256", Data(lines.utf8)))
        }
        return files.map { TestEntry($0.0, .file($0.1)) }
    }

    /// Writes the files into `folder` (for `tar`, `bsdtar` and folder imports).
    func writeFolder(_ folder: URL) throws {
        for entry in try entries() {
            guard case .file(let data) = entry.kind else { continue }
            let url = folder.appendingPathComponent(String(decoding: entry.name, as: UTF8.self))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
    }
}

/// A JSON library in its own folder holding a few albums and a cover, as a test's "before".
struct LibraryFixture {
    let folder: URL
    let library: Library
    let registry: AdapterRegistry

    /// A library of two albums, the first with a cover unless `withCover` is false (a
    /// library that then has no covers folder at all).
    static func make(in workspace: Workspace, backend: String = "json", withCover: Bool = true) async throws -> LibraryFixture {
        let folder = workspace.path("library")
        let registry = testRegistry()
        var configuration = Configuration(environment: [:])
        configuration.library = folder.path
        configuration.storage.backend = backend
        let library = try await Library.create(configuration, registry: registry, hub: NotificationHub())
        let key = withCover ? try await library.storage.covers.put(Data("existing cover".utf8), fileExtension: "png") : nil
        try await library.add(AlbumRecord(id: "kept-1", title: "Before", artist: "Someone", coverUrl: key?.bundlePath))
        try await library.add(AlbumRecord(title: "Also before", artist: "Someone else"))
        try await library.select(.position(1))
        return LibraryFixture(folder: folder, library: library, registry: registry)
    }

    func importing(_ inputs: [URL], limits: Limits = Limits()) async throws -> ImportSummary {
        var configuration = library.configuration
        configuration.limits = limits
        return try await library.importAlbums(from: inputs, through: ImportPipeline(registry: registry, configuration: configuration)).summary
    }
}

/// The adapters `albumkit` ships.
func testRegistry() -> AdapterRegistry { .installed }
