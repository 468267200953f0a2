import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// A damaged library file gives a clear error and is left exactly as it was.
@Suite struct FileStorageDamageTests {
    enum Damage: String, CaseIterable, Sendable, CustomStringConvertible {
        case truncated, notTheFormat, wrongShape, empty
        var description: String { rawValue }
    }

    @Test(arguments: FileBackendKind.allCases, Damage.allCases)
    func damagedFileIsReportedAndKept(_ kind: FileBackendKind, _ damage: Damage) async throws {
        let folder = try TemporaryFolder("damage")
        defer { folder.remove() }
        let backend = kind.make(in: folder.url)
        try await backend.create()
        try await Library.open(backend, hub: NotificationHub()).add(AlbumRecord(title: "Kept", artist: "Safe"))
        let file = folder.path(kind.fileName)
        let good = try Data(contentsOf: file)
        let bad: Data = switch damage {
        case .truncated: good.prefix(good.count / 2)
        case .notTheFormat: Data("this is not a library at all \u{7}".utf8)
        case .wrongShape: kind == .json ? Data(#"{"format":"albumkit-library","version":1,"albums":{"a":1},"state":[]}"#.utf8) : Data("<?xml version=\"1.0\"?><plist version=\"1.0\"><array><integer>1</integer></array></plist>".utf8)
        case .empty: Data()
        }
        try bad.write(to: file)

        await #expect {
            _ = try await backend.load()
        } throws: { error in
            let error = error as? AlbumKitError
            return error?.kind == .unreadableInput && error!.description.contains(file.path)
        }
        await #expect(throws: AlbumKitError.self) {
            try await Library.open(backend, hub: NotificationHub()).add(AlbumRecord(title: "New", artist: "Lost"))
        }
        #expect(try Data(contentsOf: file) == bad, "the damaged file must be left as it was")
    }

    @Test func unknownVersionIsRefused() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("library.json")
        try Data(#"{"format":"albumkit-library","version":99,"albums":[],"state":{"version":1,"current":null,"undo":[],"redo":[]}}"#.utf8).write(to: file)
        let backend = FileBackendKind.json.make(in: folder.url)
        await #expect { _ = try await backend.load() } throws: { "\($0)".contains("version 99") }
    }

    @Test func saveKeepsFilePermissions() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let backend = FileBackendKind.json.make(in: folder.url)
        try await backend.create()
        let file = folder.path("library.json").path
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        try await Library.open(backend, hub: NotificationHub()).add(AlbumRecord(title: "Private", artist: "Me"))
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "no temporary files may be left behind")
    }
}
