@testable import AlbumKit
import Foundation
import Synchronization
import Testing

/// The hub: delivery order, unsubscribing, many publishers at once, stream subscribers.
@Suite struct NotificationHubTests {
    private static func event(_ number: Int, from publisher: Int = 0) -> LibraryEvent {
        .albumMoved(AlbumID("p\(publisher)"), from: publisher, to: number)
    }

    private static func decode(_ event: LibraryEvent) -> (publisher: Int, number: Int) {
        guard case .albumMoved(_, let publisher, let number) = event else { return (-1, -1) }
        return (publisher, number)
    }

    @Test func deliversInPublishOrder() {
        let hub = NotificationHub()
        let received = Mutex<[Int]>([])
        let subscription = hub.subscribe { event in received.withLock { $0.append(Self.decode(event).number) } }
        for number in 0..<1000 { hub.publish(Self.event(number)) }
        #expect(received.withLock { $0 } == Array(0..<1000))
        subscription.cancel()
    }

    @Test func cancelledAndReleasedSubscriptionsStopDelivery() {
        let hub = NotificationHub()
        let count = Mutex(0)
        let kept = hub.subscribe { _ in count.withLock { $0 += 1 } }
        var released: HubSubscription? = hub.subscribe { _ in count.withLock { $0 += 100 } }
        hub.publish(Self.event(1))
        #expect(count.withLock { $0 } == 101)
        released = nil
        hub.publish(Self.event(2))
        #expect(count.withLock { $0 } == 102)
        kept.cancel()
        kept.cancel()
        hub.publish(Self.event(3))
        #expect(count.withLock { $0 } == 102)
        #expect(hub.subscriberCount == 0)
        _ = released
    }

    @Test func manyPublishersFromManyTasks() async {
        let hub = NotificationHub()
        let first = Mutex<[(Int, Int)]>([])
        let second = Mutex<[(Int, Int)]>([])
        let a = hub.subscribe { event in first.withLock { $0.append(Self.decode(event)) } }
        let b = hub.subscribe { event in second.withLock { $0.append(Self.decode(event)) } }
        await withTaskGroup(of: Void.self) { group in
            for publisher in 0..<16 {
                group.addTask {
                    for number in 0..<500 { hub.publish(Self.event(number, from: publisher)) }
                }
            }
        }
        let seenByFirst = first.withLock { $0 }
        let seenBySecond = second.withLock { $0 }
        #expect(seenByFirst.count == 16 * 500)
        #expect(seenByFirst.map { "\($0)" } == seenBySecond.map { "\($0)" }, "every subscriber sees one order")
        for publisher in 0..<16 {
            #expect(seenByFirst.filter { $0.0 == publisher }.map(\.1) == Array(0..<500), "publisher \(publisher)'s events out of order")
        }
        a.cancel()
        b.cancel()
    }

    /// A subscriber that names its events gets only those, and the hub says which names some
    /// subscriber takes (what lets an import skip reading its albums back for events).
    @Test func subscriberNamingItsEventsGetsOnlyThose() {
        let hub = NotificationHub()
        #expect(!hub.takes("library.albumMoved"), "no subscriber, no event taken")
        let seen = Mutex<[String]>([])
        let named = hub.subscribe(to: ["library.saved"]) { event in seen.withLock { $0.append(event.name) } }
        #expect(hub.takes("library.saved"))
        #expect(!hub.takes("library.albumMoved"))
        hub.publish(Self.event(1))
        hub.publish(.saved(location: "here", albumCount: 1))
        #expect(seen.withLock { $0 } == ["library.saved"])
        let every = hub.subscribe { _ in }
        #expect(hub.takes("library.albumMoved"), "a subscriber naming no events takes every one")
        every.cancel()
        #expect(!hub.takes("library.albumMoved"))
        named.cancel()
        #expect(!hub.takes("library.saved"))
    }

    /// Passing the cover events on to other processes takes those four only: other events'
    /// publishers (an import's `library.albumAdded`) are not told they are wanted.
    @Test func coverNoticesTakeOnlyCoverEvents() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hub-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let hub = NotificationHub()
        let announcement = try #require(CoverFetchNotices.Announcement(libraryDirectory: folder, notices: nil, hub: hub))
        #expect(["cover.requested", "cover.fetched", "cover.cached", "cover.failed"].allSatisfy(hub.takes))
        #expect(!hub.takes("library.albumAdded"))
        await announcement.end()
    }

    @Test func subscriberMayPublishFromItsHandler() {
        let hub = NotificationHub()
        let seen = Mutex<[Int]>([])
        let echo = hub.subscribe { event in
            let number = Self.decode(event).number
            seen.withLock { $0.append(number) }
            if number < 3 { hub.publish(Self.event(number + 1)) }
        }
        hub.publish(Self.event(0))
        #expect(seen.withLock { $0 } == [0, 1, 2, 3])
        echo.cancel()
    }

    @Test func streamSubscriberGetsEventsAndEndsItsSubscription() async {
        let hub = NotificationHub()
        func collectFive() async -> [Int] {
            let stream = hub.events()
            #expect(hub.subscriberCount == 1)
            for number in 0..<5 { hub.publish(Self.event(number)) }
            var numbers: [Int] = []
            for await event in stream {
                numbers.append(Self.decode(event).number)
                if numbers.count == 5 { break }
            }
            return numbers
        }
        #expect(await collectFive() == [0, 1, 2, 3, 4])
        #expect(hub.subscriberCount == 0, "leaving the loop must end the subscription")
    }

    @Test func eventLinesAreJSON() throws {
        let album = try Album(id: "x-1", title: "Quote \" tab\t back\\slash ü", artist: "A")
        let line = LibraryEvent.albumAdded(album, position: 2).jsonLine(at: Date(timeIntervalSince1970: 0))
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["event"] as? String == "library.albumAdded")
        #expect(object?["time"] as? String == "1970-01-01T00:00:00Z")
        #expect(object?["title"] as? String == "Quote \" tab\t back\\slash ü")
        #expect(object?["position"] as? Int == 2)
        #expect(line.hasPrefix(#"{"event":"library.albumAdded","time":"#))
    }
}
