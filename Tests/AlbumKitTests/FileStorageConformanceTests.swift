import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// The backend conformance suite, run by `json`, `plist` (XML) and `plist` (binary).
@Suite struct FileStorageConformanceTests {
    @Test(arguments: FileBackendKind.allCases, StorageBackendCompatTest.Check.allCases)
    func conformance(_ kind: FileBackendKind, _ check: StorageBackendCompatTest.Check) async throws {
        let folder = try TemporaryFolder("conformance")
        defer { folder.remove() }
        let damage = StorageBackendCompatTest.damagingFile(folder.path(kind.fileName))
        try await StorageBackendCompatTest(damage: damage) { kind.make(in: folder.url, lockTimeout: $0) }.run(check)
    }

    @Test func binaryAndXMLPropertyListsAreWhatTheySay() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for kind in [FileBackendKind.plistXML, .plistBinary] {
            let backend = kind.make(in: folder.path(kind.rawValue))
            try await backend.create()
            let prefix = try Data(contentsOf: folder.path(kind.rawValue).appendingPathComponent(kind.fileName)).prefix(6)
            #expect((prefix == Data("bplist".utf8)) == (kind == .plistBinary))
        }
    }
}
