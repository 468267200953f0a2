import AlbumKitTesting
import Foundation
import Testing

/// End-to-end: hostile archives through `albumkit import`, `restore` and `verify`. Each is
/// made here by Python's tarfile (never by our writer); each must fail with one `error:`
/// line naming the archive, leave the library byte for byte as it was, and write nothing
/// outside it.
@Suite struct HostileBundleCommandTests {
    /// Python that writes a hostile `bundle.tar.gz` into the current folder.
    enum Hostile: String, CaseIterable, Sendable, CustomStringConvertible {
        case parentPath, absolutePath, symlink, hardlink, fifo, randomBytes, truncated, wrongCoverHash, unknownVersion, coverThenSymlink
        case gzipInsideGzip, wrongGzipCRC, dataAfterTheGzipStream

        var description: String { rawValue }

        var script: String {
            let prelude = """
                import io, tarfile, hashlib, json, os
                def add(t, name, data, **kw):
                    info = tarfile.TarInfo(name); info.size = len(data)
                    for k, v in kw.items(): setattr(info, k, v)
                    t.addfile(info, io.BytesIO(data))
                albums = json.dumps([{"title": "Evil", "artist": "E"}]).encode()

                """
            switch self {
            case .parentPath:
                return prelude + "t = tarfile.open('bundle.tar.gz', 'w:gz'); add(t, 'albums.json', albums); add(t, '../escaped.txt', b'x'); t.close()"
            case .absolutePath:
                return prelude + "t = tarfile.open('bundle.tar.gz', 'w:gz'); add(t, 'albums.json', albums); add(t, '/tmp/albumkit-absolute.txt', b'x'); t.close()"
            case .symlink:
                return prelude + "t = tarfile.open('bundle.tar.gz', 'w:gz'); add(t, 'albums.json', albums); add(t, 'covers/link.png', b'', type=tarfile.SYMTYPE, linkname='/etc/passwd'); t.close()"
            case .hardlink:
                return prelude + "t = tarfile.open('bundle.tar.gz', 'w:gz'); add(t, 'albums.json', albums); add(t, 'covers/hard.png', b'', type=tarfile.LNKTYPE, linkname='albums.json'); t.close()"
            case .fifo:
                return prelude + "t = tarfile.open('bundle.tar.gz', 'w:gz'); add(t, 'albums.json', albums); add(t, 'covers/pipe', b'', type=tarfile.FIFOTYPE); t.close()"
            case .randomBytes:
                return "import random; random.seed(7); open('bundle.tar.gz', 'wb').write(bytes(random.getrandbits(8) for _ in range(4096)))"
            case .truncated:
                return prelude + "t = tarfile.open('full.tar.gz', 'w:gz'); add(t, 'albums.json', albums); add(t, 'covers/big.bin', os.urandom(200000)); t.close()\ndata = open('full.tar.gz', 'rb').read(); open('bundle.tar.gz', 'wb').write(data[: len(data) // 2]); os.remove('full.tar.gz')"
            case .wrongCoverHash:
                return prelude + "png = b'\\x89PNG\\r\\n\\x1a\\n' + b'0' * 64\nname = 'covers/' + '0' * 64 + '.png'\nt = tarfile.open('bundle.tar.gz', 'w:gz'); add(t, 'albums.json', json.dumps([{'title': 'T', 'artist': 'A', 'coverUrl': name}]).encode()); add(t, name, png); t.close()"
            case .coverThenSymlink:
                // A good cover, written into the library's covers before the link is met.
                return prelude + "png = b'\\x89PNG\\r\\n\\x1a\\n' + b'1' * 64\nname = 'covers/' + hashlib.sha256(png).hexdigest() + '.png'\nt = tarfile.open('bundle.tar.gz', 'w:gz'); add(t, 'albums.json', json.dumps([{'title': 'T', 'artist': 'A', 'coverUrl': name}]).encode()); add(t, name, png); add(t, 'covers/link.png', b'', type=tarfile.SYMTYPE, linkname='/etc/passwd'); t.close()"
            case .gzipInsideGzip:
                return prelude + "import gzip\nt = tarfile.open('inner.tar.gz', 'w:gz'); add(t, 'albums.json', albums); t.close()\ndata = open('inner.tar.gz', 'rb').read()\nfor _ in range(20): data = gzip.compress(data)\nopen('bundle.tar.gz', 'wb').write(data); os.remove('inner.tar.gz')"
            case .wrongGzipCRC:
                return prelude + "t = tarfile.open('bundle.tar.gz', 'w:gz'); add(t, 'albums.json', albums); t.close()\ndata = bytearray(open('bundle.tar.gz', 'rb').read()); data[-8] ^= 1; open('bundle.tar.gz', 'wb').write(data)"
            case .dataAfterTheGzipStream:
                return prelude + "t = tarfile.open('bundle.tar.gz', 'w:gz'); add(t, 'albums.json', albums); t.close()\nopen('bundle.tar.gz', 'ab').write(b'appended')"
            case .unknownVersion:
                return prelude + "t = tarfile.open('bundle.tar.gz', 'w:gz'); add(t, 'manifest.json', json.dumps({'format': 'albumkit-bundle', 'version': 9, 'albumCount': 1}).encode()); add(t, 'albums.json', albums); t.close()"
            }
        }
    }

    @Test(arguments: Hostile.allCases, ["import", "restore", "verify"])
    func refusedWithNothingWritten(_ hostile: Hostile, _ command: String) throws {
        // The starter, whose covers are in covers/, and a library with no cover and no covers/ folder.
        for starter in [true, false] {
            try refusedWithNothingWritten(hostile, command, starter: starter)
        }
    }

    private func refusedWithNothingWritten(_ hostile: Hostile, _ command: String, starter: Bool) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        if starter {
            try cli.run("init", "--starter")
        } else {
            try cli.run("init")
            try cli.run("add", "--title", "Plain", "--artist", "No Cover")
        }
        #expect(try runProgram("/usr/bin/env", ["python3", "-c", hostile.script], in: cli.folder).status == 0)
        let before = try Self.contents(of: cli.folder)
        let arguments = command == "restore" ? ["restore", "--force", "bundle.tar.gz"] : [command, "bundle.tar.gz"]
        let result = try cli.run(arguments)
        #expect(result.status != 0)
        let errors = result.error.split(separator: "\n").filter { $0.lowercased().hasPrefix("error:") }
        #expect(errors.count == 1 && errors[0].contains("bundle.tar.gz"), "\(result.error)")
        #expect(try Self.contents(of: cli.folder) == before, "nothing may be written, changed or left behind")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/albumkit-absolute.txt"))
        #expect(!FileManager.default.fileExists(atPath: cli.folder.deletingLastPathComponent().appendingPathComponent("escaped.txt").path))
    }

    @Test func aFolderBundleWithAHardLinkedFileIsRefused() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init")
        let outside = cli.folder.appendingPathComponent("secret.json")
        try Data(#"[{"title": "Secret", "artist": "Outside"}]"#.utf8).write(to: outside)
        let bundle = cli.folder.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        #expect(link(outside.path, bundle.appendingPathComponent("albums.json").path) == 0)
        let result = try cli.run("import", bundle.path)
        #expect(result.status != 0)
        #expect(result.error.contains("hard link") && result.error.contains("albums.json"), "\(result.error)")
        #expect(try cli.run("list").output.contains("(no albums)"))
    }

    /// Every file under `folder` (bar the runner's own output files) with its bytes, and every
    /// folder (its path ending in `/`, no bytes): a folder left behind is a change too.
    static func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey])
        while let url = walker?.nextObject() as? URL {
            let kind = try url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            if kind.isDirectory == true {
                files[url.path + "/"] = Data()
                continue
            }
            guard kind.isRegularFile == true, !url.lastPathComponent.hasPrefix(".out-"), !url.lastPathComponent.hasPrefix(".err-")
            else { continue }
            files[url.path] = try Data(contentsOf: url)
        }
        return files
    }
}
