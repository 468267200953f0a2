import Foundation

/// A fresh folder under the system temporary folder, for one test.
struct TemporaryFolder {
    let url: URL

    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ component: String) -> URL { url.appendingPathComponent(component) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
