import AlbumKit
import Foundation
import Logging

/// Brings in what other writers save — an `albumkit` command in another process, another
/// `serve` on the same database — so every open page sees it: a backend with a change feed
/// (PostgreSQL `LISTEN`) is followed; a library in files (json, plist, bundle, sqlite) is
/// polled by the identity, size and change time of its file (and SQLite's `-wal`), which
/// costs two `stat` calls per tick; anything else is reloaded once a second. A change found
/// reloads the library through the gateway, which publishes it on the hub.
struct LibraryWatcher: Sendable {
    let gateway: LibraryGateway
    let logger: Logger
    /// How often files are looked at.
    var tick: Duration = .milliseconds(100)

    /// Watches until the task is cancelled.
    func run() async {
        await reload()  // whatever changed between opening and now
        if let feed = gateway.changeFeed {
            await follow(feed)
        } else if gateway.location.hasPrefix("/") {
            await poll(files: [gateway.location, gateway.location + "-wal"])
        } else {
            while (try? await Task.sleep(for: .seconds(1))) != nil { await reload() }
        }
    }

    private func follow(_ feed: any StorageChangeFeed) async {
        while !Task.isCancelled {
            do {
                for try await _ in feed.changes() { await reload() }
            } catch {
                logger.warning("serve: lost the change feed of \(gateway.location): \(error); listening again in a second")
            }
            guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
            await reload()  // what was saved while nobody listened
        }
    }

    private func poll(files: [String]) async {
        var seen = files.map(Self.identity)
        while (try? await Task.sleep(for: tick)) != nil {
            let now = files.map(Self.identity)
            guard now != seen else { continue }
            seen = now
            await reload()
        }
    }

    private func reload() async {
        do {
            _ = try await gateway.reloadIfChanged()
        } catch {
            logger.warning("serve: cannot reload \(gateway.location): \(error)")
        }
    }

    /// Device, inode, size and change time of `path` (nil when it is absent): an atomic
    /// rename changes the inode, an SQLite commit the `-wal` file's size or time.
    private static func identity(_ path: String) -> [Int]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [Int(status.st_dev), Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec,
                status.st_ctim.tv_sec, status.st_ctim.tv_nsec]
    }
}
