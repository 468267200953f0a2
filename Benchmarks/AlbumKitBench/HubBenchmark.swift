import AlbumKit
import ArgumentParser
import Foundation
import Synchronization

/// `albumkit-bench hub`: events delivered per second by ``NotificationHub`` to 1 and 10
/// closure subscribers, next to Foundation's `NotificationCenter.post` with the same number of
/// block observers carrying the same event (in `userInfo`). Every subscriber does the same
/// work: it counts the event. One thread publishes; the best of several rounds is reported.
struct HubBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hub", abstract: "Hub vs NotificationCenter, events per second.")

    @Option(help: "Events published per timed round.") var events = 200_000
    @Option(help: "Timed rounds (the best is reported: on a shared machine it is the least disturbed).") var rounds = 5
    @Option(help: "Subscriber counts to measure.") var subscribers: [Int] = [1, 10]

    /// What every subscriber does with an event.
    private final class Counter: Sendable {
        let delivered = Atomic<Int>(0)
        func count() { delivered.add(1, ordering: .relaxed) }
    }

    func run() async throws {
        let event = LibraryEvent.albumAdded(try Album(id: "bench-hub", title: "Blue Night", artist: "Björk", year: "1997"), position: 1)
        var hub: [String: Double] = [:]
        var center: [String: Double] = [:]
        for count in subscribers {
            hub[String(count)] = rate(subscribers: count) { counter in
                let hub = NotificationHub()
                let tokens = (0..<count).map { _ in hub.subscribe { _ in counter.count() } }
                return ({ hub.publish(event) }, tokens)
            }
            center[String(count)] = rate(subscribers: count) { counter in
                let center = NotificationCenter()
                let name = Notification.Name(event.name)
                let info: [AnyHashable: Any] = ["event": event]
                let tokens = (0..<count).map { _ in center.addObserver(forName: name, object: nil, queue: nil) { _ in counter.count() } }
                return ({ center.post(name: name, object: nil, userInfo: info) }, tokens)
            }
        }
        try BenchmarkOutput.printJSON(["events": events, "rounds": rounds, "hub": hub, "notificationCenter": center])
    }

    /// The best, over the rounds, of events delivered per second by the `post` that `setUp`
    /// makes (it also returns the subscriptions to keep alive while timing).
    private func rate(subscribers: Int, _ setUp: (Counter) -> (post: () -> Void, keep: [Any])) -> Double {
        var rates: [Double] = []
        for round in 0...rounds {
            let counter = Counter()
            let (post, keep) = setUp(counter)
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<events { post() }
            let elapsed = (clock.now - start).seconds
            withExtendedLifetime(keep) {}
            precondition(counter.delivered.load(ordering: .relaxed) == events * subscribers, "lost events")
            if round > 0 { rates.append(Double(events * subscribers) / elapsed) }  // round 0 warms up
        }
        return rates.max() ?? 0
    }
}
