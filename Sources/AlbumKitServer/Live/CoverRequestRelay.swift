import AlbumKit
import Foundation
import Logging

/// Brings the covers other processes are fetching (`albumkit covers fetch`, `add` with a
/// cover URL) to the open pages: their cover events (``CoverFetchNotices``) — heard through
/// the storage when it carries notices (every host over one PostgreSQL database), else read
/// from the library folder every tick — are sent down the event streams as they are, not
/// published on the hub, where this server's own cover service would fetch them a second
/// time; so a page shows a spinner from `cover.requested` to `cover.fetched` or `cover.failed`.
struct CoverRequestRelay: Sendable {
    let libraryDirectory: URL
    /// The storage's notices, when it carries them.
    let notices: (any StorageNotices)?
    let feed: EventFeed
    let logger: Logger
    /// How often the notice files are looked at.
    var tick: Duration = .milliseconds(100)

    /// Relays until the task is cancelled.
    func run() async {
        guard let notices else {
            var files = CoverFetchNotices.Reader(libraryDirectory: libraryDirectory)
            while (try? await Task.sleep(for: tick)) != nil {
                for line in files.newEvents() { feed.relay(line) }
            }
            return
        }
        while !Task.isCancelled {
            do {
                for try await notice in notices.notices() {
                    if let line = CoverFetchNotices.line(of: notice) { feed.relay(line) }
                }
            } catch {
                logger.warning("serve: lost the cover notices of \(libraryDirectory.path): \(error); listening again in a second")
            }
            guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
        }
    }
}
