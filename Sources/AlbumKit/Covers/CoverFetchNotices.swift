import Foundation
import Synchronization

/// The covers other processes are fetching for a library, so that `serve` shows a spinner for
/// a fetch another process started (`albumkit covers fetch`) and stops it when that ends: the
/// hub's `cover.*` events live in the process that publishes them. A fetching process passes
/// each of its cover events on as the JSON line `--events` writes
/// (``LibraryEvent/jsonLine(at:)``):
/// - through the storage when it carries notices (``StorageNotices``: PostgreSQL), so every
///   host over the same database hears them, each line after the fetching process's token,
///   by which a process knows its own;
/// - else in a file of its own in the library folder, `fetching-covers/PID.jsonl`, removed
///   when it is done; a reader takes the new lines of the files whose process is alive.
public enum CoverFetchNotices {
    /// The folder of notices in `libraryDirectory`.
    public static func folder(in libraryDirectory: URL) -> URL { libraryDirectory.appendingPathComponent("fetching-covers") }

    /// What tells this process's notices from others' (``StorageNotices`` carry every
    /// process's, this one's included).
    private static let token = UUID().uuidString

    /// The event `notice` (a ``StorageNotices`` notice) carries, as its JSON line; nil when
    /// this process posted it (its events are on its own hub) or it has no token.
    public static func line(of notice: String) -> String? {
        guard let space = notice.firstIndex(of: " "), notice[..<space] != token else { return nil }
        return String(notice[notice.index(after: space)...])
    }

    /// Whether `name` is the notice file (`PID.jsonl`) of a process that is alive.
    static func isAlive(_ name: String) -> Bool {
        guard name.hasSuffix(".jsonl"), let pid = Int32(name.dropLast(6)), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// This process's cover events, passed on from a hub until ``end()``: through `notices`
    /// when the storage has them, else in this process's notice file.
    public final class Announcement: Sendable {
        private let subscription: HubSubscription
        private let ending: @Sendable () async -> Void

        /// Starts passing on the cover events of `hub`; nil when the folder cannot be written
        /// (nobody is told, and the fetch goes on).
        init?(libraryDirectory: URL, notices: (any StorageNotices)?, hub: NotificationHub) {
            let pass: @Sendable (String) -> Void
            if let notices {
                let poster = NoticePoster(notices)
                pass = { poster.add(CoverFetchNotices.token + " " + $0) }
                ending = { await poster.finish() }
            } else {
                let folder = CoverFetchNotices.folder(in: libraryDirectory)
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                // What processes killed mid-fetch left says nothing any more.
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !CoverFetchNotices.isAlive(name) {
                    unlink(folder.appendingPathComponent(name).path)
                }
                let path = folder.appendingPathComponent("\(getpid()).jsonl").path
                let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { return nil }
                pass = { line in
                    let bytes = Array((line + "\n").utf8)
                    // One write per line: O_APPEND keeps each whole, whatever reads meanwhile.
                    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                }
                // The folder goes too when no other process has a file there (a process
                // creating one meanwhile then tells nobody; its fetch goes on).
                ending = {
                    close(descriptor)
                    unlink(path)
                    rmdir(folder.path)
                }
            }
            // Only the names passed on, so publishers of others are not told they are wanted.
            subscription = hub.subscribe(to: ["cover.requested", "cover.fetched", "cover.cached", "cover.failed"]) { event in
                pass(event.jsonLine(at: Date()))
            }
        }

        /// Stops passing events on, once every one has gone out, and removes the file.
        public func end() async {
            subscription.cancel()
            await ending()
        }
    }

    /// Posts notices in order from a task of its own, as many as are waiting at a time, so
    /// that a hub subscriber never waits for the storage.
    private final class NoticePoster: Sendable {
        /// The notices added and not yet taken for posting.
        private final class Waiting: Sendable {
            private let notices = Mutex<[String]>([])
            func add(_ notice: String) { notices.withLock { $0.append(notice) } }
            func take() -> [String] { notices.withLock { notices in defer { notices = [] }; return notices } }
        }

        private let waiting: Waiting
        private let wake: AsyncStream<Void>.Continuation
        private let posting: Task<Void, Never>

        init(_ notices: any StorageNotices) {
            let (woken, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let waiting = Waiting()
            self.waiting = waiting
            self.wake = wake
            posting = Task {
                for await _ in woken {
                    let taken = waiting.take()
                    // A notice the storage cannot take is lost: the fetch goes on.
                    if !taken.isEmpty { try? await notices.post(taken) }
                }
            }
        }

        /// Posts `notice` after those added before.
        func add(_ notice: String) {
            waiting.add(notice)
            wake.yield()
        }

        /// Returns once every notice added is posted.
        func finish() async {
            wake.finish()
            await posting.value
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
