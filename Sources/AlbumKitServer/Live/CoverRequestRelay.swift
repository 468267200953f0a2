import AlbumKit
import Foundation

/// Brings the covers other processes are fetching (`albumkit covers fetch`, `add` with a
/// cover URL) to the open pages: their cover events (``CoverFetchNotices``) are read every
/// tick and sent down the event streams as they are — not published on the hub, where this
/// server's own cover service would fetch them a second time — so a page shows a spinner from
/// `cover.requested` to `cover.fetched` or `cover.failed`.
struct CoverRequestRelay: Sendable {
    let libraryDirectory: URL
    let feed: EventFeed
    /// How often the notices are looked at.
    var tick: Duration = .milliseconds(100)

    /// Relays until the task is cancelled.
    func run() async {
        var notices = CoverFetchNotices.Reader(libraryDirectory: libraryDirectory)
        while (try? await Task.sleep(for: tick)) != nil {
            for line in notices.newEvents() { feed.relay(line) }
        }
    }
}
