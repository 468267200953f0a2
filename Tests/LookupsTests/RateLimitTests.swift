import AlbumKit
import Foundation
import Synchronization
import LoopbackHTTPServer
import Lookups
import Testing

/// One limiter per service in the process: MusicBrainz gets at most one request a second
/// however many lookups run at once, and whichever clients make them.
@Suite struct RateLimitTests {
    @Test(.timeLimit(.minutes(3)))
    func twentyLookupsEightAtATimeReachMusicBrainzAtMostOncePerSecond() async throws {
        let local = try await LocalServices.start(StandardAnswers.answer)
        let configuration = local.configuration(requestsPerSecond: 1)
        let found = try await withThrowingTaskGroup(of: Bool.self) { group in
            var found = 0
            for index in 0..<20 {
                if index >= 8, try await group.next() == true { found += 1 }
                // A client of its own for each lookup: the limiter is the process's, not a client's.
                group.addTask { try await LookupServices(configuration: configuration).musicBrainz.release(Answers.release) != nil }
            }
            for try await answer in group where answer { found += 1 }
            return found
        }
        await local.stop()
        #expect(found == 20)
        let times = local.server.requests.map(\.arrival).sorted()
        #expect(times.count == 20)
        let gaps = zip(times, times.dropFirst()).map { $0.duration(to: $1) }
        #expect(gaps.allSatisfy { $0 >= .seconds(1) }, "gaps at the server: \(gaps)")
    }

    @Test func oneRequestAtATimeEachAnIntervalAfterTheLastEnded() async throws {
        let limiter = RequestRateLimiter(requestsPerSecond: 20)
        let log = TurnLog()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    try await limiter.enter()
                    let start = ContinuousClock.now
                    try await Task.sleep(for: .milliseconds(30))
                    log.turns.withLock { $0.append((start, .now)) }
                    await limiter.leave()
                }
            }
            try await group.waitForAll()
        }
        let turns = log.turns.withLock { $0 }.sorted { $0.start < $1.start }
        #expect(turns.count == 5)
        for (earlier, later) in zip(turns, turns.dropFirst()) {
            #expect(earlier.end.duration(to: later.start) >= .milliseconds(50), "the next starts 50 ms after the last ended")
        }
    }
}

/// When each turn of a limiter started and ended.
private final class TurnLog: Sendable {
    let turns = Mutex<[(start: ContinuousClock.Instant, end: ContinuousClock.Instant)]>([])
}
