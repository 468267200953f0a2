import Foundation

/// A fresh folder under the system temporary folder, for one test; ``remove()`` deletes it.
public struct TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// A new empty folder whose name starts with `name`.
    public init(_ name: String = "albumkit-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// `component` inside the folder.
    public func path(_ component: String) -> URL { url.appendingPathComponent(component) }

    /// Deletes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
