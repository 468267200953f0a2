import Foundation

/// The covers the processes on this machine are fetching for a library, so that `serve`
/// shows a spinner for a fetch another process started (`albumkit covers fetch`) and stops it
/// when that ends: the hub's `cover.*` events live in the process that publishes them. A
/// fetching process appends each of its cover events, as the JSON line `--events` writes
/// (``LibraryEvent/jsonLine(at:)``), to a file of its own, `fetching-covers/PID.jsonl` in
/// the library folder, and removes the file when it is done; a reader takes the new lines of
/// the files whose process is alive.
public enum CoverFetchNotices {
    /// The folder of notices in `libraryDirectory`.
    public static func folder(in libraryDirectory: URL) -> URL { libraryDirectory.appendingPathComponent("fetching-covers") }

    /// Whether `name` is the notice file (`PID.jsonl`) of a process that is alive.
    static func isAlive(_ name: String) -> Bool {
        guard name.hasSuffix(".jsonl"), let pid = Int32(name.dropLast(6)), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// This process's notice file, written from the cover events of a hub until ``end()``
    /// removes it.
    final class Announcement: Sendable {
        private let path: String
        private let descriptor: Int32
        private let subscription: HubSubscription

        /// Starts noting the cover events of `hub`; nil when the folder cannot be written
        /// (nobody is told, and the fetch goes on).
        init?(libraryDirectory: URL, hub: NotificationHub) {
            let folder = CoverFetchNotices.folder(in: libraryDirectory)
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // What processes killed mid-fetch left says nothing any more.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !CoverFetchNotices.isAlive(name) {
                unlink(folder.appendingPathComponent(name).path)
            }
            path = folder.appendingPathComponent("\(getpid()).jsonl").path
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
            subscription = hub.subscribe { event in
                switch event {
                case .coverRequested, .coverFetched, .coverCached, .coverFailed: break
                default: return
                }
                let line = Array((event.jsonLine(at: Date()) + "\n").utf8)
                // One write per line: O_APPEND keeps each whole, whatever reads meanwhile.
                _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            }
        }

        /// Stops noting and removes the file, and the folder when no other process has a file
        /// there (a process creating one meanwhile then tells nobody; its fetch goes on).
        func end() {
            subscription.cancel()
            close(descriptor)
            unlink(path)
            rmdir((path as NSString).deletingLastPathComponent)
        }
    }

    /// Follows the notice files of a library folder: each call returns the events noted
    /// since the last, by other processes still alive (a process killed mid-fetch leaves its
    /// file, which says nothing once it is gone; this process's own requests are on its hub).
    public struct Reader: Sendable {
        private let folder: URL
        private var read: [String: Int] = [:]

        /// A reader of the notices in `libraryDirectory`, from what its files hold now on
        /// (what was requested before is fetched or being fetched already).
        public init(libraryDirectory: URL) {
            folder = CoverFetchNotices.folder(in: libraryDirectory)
            _ = newEvents()
        }

        /// The events noted since the last call (JSON lines), in the order each process noted them.
        public mutating func newEvents() -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            var events: [String] = []
            var seen: [String: Int] = [:]
            for name in names {
                guard name != "\(getpid()).jsonl", CoverFetchNotices.isAlive(name),
                      let handle = FileHandle(forReadingAtPath: folder.appendingPathComponent(name).path) else { continue }
                defer { try? handle.close() }
                var offset = read[name] ?? 0
                try? handle.seek(toOffset: UInt64(offset))
                let data = (try? handle.readToEnd()) ?? Data()
                // Only whole lines: the rest is read when its newline is there.
                if let end = data.lastIndex(of: 0x0A) {
                    events += data[..<end].split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
                    offset += end - data.startIndex + 1
                }
                seen[name] = offset
            }
            read = seen
            return events
        }
    }
}
