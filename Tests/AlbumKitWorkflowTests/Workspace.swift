import AlbumKit
import AlbumKitBundle
import Foundation
import SQLiteStorage

/// A temporary folder holding a library's configuration, the library, and inputs; and the
/// registry a program linking AlbumKit, AlbumKitBundle and the SQLite backend would build.
struct Workspace {
    let folder: URL
    let hub = NotificationHub()
    let events = EventLog()
    private let subscription: HubSubscription

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("workflow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let events = events
        subscription = hub.subscribe { events.record($0) }
    }

    /// The core's adapters plus the bundle module's and the SQLite backend, registered as any
    /// program would.
    static var registry: AdapterRegistry {
        var registry = AdapterRegistry.builtIn
        registry.register(StorageBackendFactory.bundle)
        registry.register(StorageBackendFactory.sqlite)
        registry.register(BundleSource())
        registry.register(BundleExporter())
        return registry
    }

    /// A configuration whose library (and config file) lives in this folder.
    func configuration(backend: String = "json", stages: [String]? = nil) -> Configuration {
        var configuration = Configuration(environment: [:])
        configuration.library = folder.appendingPathComponent("library").path
        configuration.defaultFile = folder.appendingPathComponent("config/albumkit/config.yaml").path
        configuration.storage.backend = backend
        if let stages { configuration.importStages = stages }
        return configuration
    }

    func path(_ name: String) -> URL { folder.appendingPathComponent(name) }

    func remove() {
        subscription.cancel()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Every file under `folder` with the SHA-256 of its bytes.
    static func hashes(of folder: URL) -> [String: String] {
        var result: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return result }
        while let name = walker.nextObject() as? String {
            let url = folder.appendingPathComponent(name)
            guard let bytes = try? Data(contentsOf: url) else { continue }
            result[name] = SHA256Digest.hex(of: bytes)
        }
        return result
    }

    /// Writes `albums` as a JSON album list named `name`; returns its URL.
    func albumList(_ name: String, _ albums: [[String: Any]]) throws -> URL {
        let url = path(name)
        try JSONSerialization.data(withJSONObject: albums).write(to: url)
        return url
    }
}

/// The names of the events published, in order.
final class EventLog: Sendable {
    private let names = Mutex<[LibraryEvent]>([])

    func record(_ event: LibraryEvent) { names.withLock { $0.append(event) } }

    /// Every event so far; clears the log.
    func take() -> [LibraryEvent] { names.withLock { events in defer { events = [] }; return events } }
}

import Synchronization
