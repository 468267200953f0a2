import Foundation
import Synchronization

/// The cover service (the seed's "check the cache, else download, then tell whoever shows
/// it"), a hub subscriber: for every `cover.requested` it checks the library's store, else
/// runs the fetcher chain, stores the bytes under their SHA-256 and publishes
/// `cover.fetched`, `cover.cached` or `cover.failed`. One reference is fetched once however
/// many albums ask for it; at most `concurrency` fetches run at a time. ``finish()`` waits
/// for the work. Every reference → cover mapping is recorded in the library's memento as it
/// lands (batched to at most one save per ``flushInterval``), so a crash mid-round forgets no
/// finished download.
public final class CoverService: Sendable {
    /// How one reference was resolved: `fetchedBytes` is nil when the store already had it.
    private struct Outcome: Sendable {
        let resolution: CoverResolution
        let fetchedBytes: Int?
    }

    private struct State {
        var inFlight: [String: Task<Outcome, Never>] = [:]
        var deliveries: [Task<Void, Never>] = []
        /// Results not yet recorded in the memento.
        var unrecorded: [String: CoverResolution] = [:]
        /// The save that records them, when one is scheduled.
        var flush: Task<Void, Never>?
        var recordingError: (any Error)?
        var summary = CoverFetchSummary()
    }

    /// How long results wait to be recorded together.
    public static let flushInterval = Duration.milliseconds(500)

    private let library: Library
    private let fetchers: [any CoverFetcher]
    private let allowedSchemes: Set<String>
    private let maxBytes: Int
    private let limiter: ConcurrencyLimiter
    private let state = Mutex(State())

    /// A service fetching for `library` through `fetchers` (in order), as `covers` configures.
    public init(library: Library, fetchers: [any CoverFetcher], covers: Configuration.Covers) {
        self.library = library
        self.fetchers = fetchers
        self.allowedSchemes = Set(covers.allowedSchemes.map { $0.lowercased() })
        self.maxBytes = covers.maxBytes
        self.limiter = ConcurrencyLimiter(limit: covers.concurrency)
    }

    /// Subscribes to the library's hub: every `cover.requested` becomes a request.
    public func attach() -> HubSubscription {
        library.hub.subscribe { [self] event in
            if case .coverRequested(let id, let reference) = event { request(id, reference: reference) }
        }
    }

    /// Asks for the cover `reference` of album `id`; the outcome is published on the hub.
    public func request(_ id: AlbumID, reference: String) {
        state.withLock { state in
            if let shared = state.inFlight[reference] {
                state.deliveries.append(Task { [self] in
                    deliver(Outcome(resolution: await shared.value.resolution, fetchedBytes: nil), to: id, reference: reference)
                })
                return
            }
            let fetch = Task { [self] in await limiter.run { await self.resolve(reference) } }
            state.inFlight[reference] = fetch
            state.deliveries.append(Task { [self] in
                deliver(await fetch.value, to: id, reference: reference)
            })
        }
    }

    /// Waits until every requested cover is done and recorded in the library's memento,
    /// releases the fetchers, and returns what happened.
    @discardableResult
    public func finish() async throws -> CoverFetchSummary {
        while true {
            let pending = state.withLock { state in
                defer { state.deliveries.removeAll() }
                return state.deliveries
            }
            if pending.isEmpty { break }
            for delivery in pending { await delivery.value }
        }
        while let flush = state.withLock({ $0.flush }) { await flush.value }
        for fetcher in fetchers { await fetcher.shutdown() }
        try await record()
        let (summary, error) = state.withLock { ($0.summary, $0.recordingError) }
        if let error { throw error }
        return summary
    }

    /// Records the results that landed since the last save, in one save.
    private func record() async throws {
        let results = state.withLock { state in
            defer { state.unrecorded = [:] }
            return state.unrecorded
        }
        if !results.isEmpty { try await library.recordCovers(results) }
    }

    /// Schedules a save of the unrecorded results, unless one is scheduled.
    private func scheduleFlush() {
        state.withLock { state in
            guard state.flush == nil else { return }
            state.flush = Task { [self] in
                try? await Task.sleep(for: Self.flushInterval)
                do {
                    try await record()
                } catch {
                    self.state.withLock { $0.recordingError = $0.recordingError ?? error }
                }
                let more = self.state.withLock { state in
                    state.flush = nil
                    return !state.unrecorded.isEmpty
                }
                if more { scheduleFlush() }
            }
        }
    }

    private func deliver(_ outcome: Outcome, to id: AlbumID, reference: String) {
        let resolution = outcome.resolution
        let event: LibraryEvent
        if let key = resolution.key {
            event = outcome.fetchedBytes.map { .coverFetched(id, reference: reference, key: key, bytes: $0) }
                ?? .coverCached(id, reference: reference, key: key)
        } else {
            event = .coverFailed(id, reference: reference, reason: resolution.failure ?? "unknown")
        }
        state.withLock { state in
            state.unrecorded[reference] = resolution
            switch event {
            case .coverFetched: state.summary.fetched += 1
            case .coverCached: state.summary.cached += 1
            default: state.summary.failures.append(.init(album: id, reference: reference, reason: resolution.failure ?? ""))
            }
        }
        library.hub.publish(event)
        scheduleFlush()
    }

    /// The stored cover when the memento already maps `reference` to bytes the store holds;
    /// else the first fetcher that handles it.
    private func resolve(_ reference: String) async -> Outcome {
        let store = library.storage.covers
        if let key = await library.memento.covers[reference]?.key ?? CoverKey(fileName: reference),
            (try? await store.contains(key)) == true
        {
            return Outcome(resolution: .stored(key), fetchedBytes: nil)
        }
        do {
            let (key, count) = try await fetch(reference, into: store)
            return Outcome(resolution: .stored(key), fetchedBytes: count)
        } catch {
            return Outcome(resolution: .failed(String(describing: error)), fetchedBytes: 0)
        }
    }

    private func fetch(_ reference: String, into store: any CoverStore) async throws -> (CoverKey, Int) {
        if let scheme = URL(string: reference)?.scheme?.lowercased(), !reference.hasPrefix("covers/"), !allowedSchemes.contains(scheme) {
            throw AlbumKitError(.unsupported, "\(reference): the scheme '\(scheme)' is not in covers.allowedSchemes")
        }
        let request = CoverFetchRequest(reference: reference, maxBytes: maxBytes)
        for fetcher in fetchers {
            guard let bytes = try await fetcher.fetch(request) else { continue }
            guard let kind = ImageKind(sniffing: bytes) else {
                throw AlbumKitError(.unreadableInput, "\(reference): not a JPEG, PNG, GIF or WebP image (\(bytes.count) bytes starting \(bytes.prefix(8).map { String(format: "%02x", $0) }.joined()))")
            }
            return (try await store.put(bytes, fileExtension: kind.fileExtension), bytes.count)
        }
        throw AlbumKitError(.unsupported, "\(reference): no fetcher in covers.fetchers (\(fetchers.map(\.name).joined(separator: ", "))) handles it")
    }
}
