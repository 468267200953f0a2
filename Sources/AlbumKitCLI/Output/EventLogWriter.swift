import AlbumKit
import Foundation

/// `--events FILE`: a hub subscriber that appends each event as one JSON line
/// (`-` writes to standard error).
struct EventLogWriter {
    private let handle: FileHandle

    init(path: String) throws {
        if path == "-" {
            handle = .standardError
            return
        }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw AlbumKitError(.fileSystem, "\(path): cannot create the events file")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw AlbumKitError(.fileSystem, "\(path): cannot open the events file for writing")
        }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    /// Subscribes to `hub`; events are written as they are published.
    func attach(to hub: NotificationHub) -> HubSubscription {
        let handle = handle
        return hub.subscribe { event in
            handle.write(Data((event.jsonLine(at: Date()) + "\n").utf8))
        }
    }
}
