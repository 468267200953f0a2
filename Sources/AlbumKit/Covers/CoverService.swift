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
///
/// The chain is tried in order: a fetcher that declines or fails passes the album on to the
/// next (the reasons are kept for the failure). A fetcher that finds covers by album (a
/// lookup service) is also asked for an album that names no cover (``request(_:)``); what it
/// finds must pass `covers.minPixels` and `covers.maxAspect`, else the next fetcher is
/// asked. What such a fetcher found — the cover, for an album that named none, as its
/// `covers/<name>`; identities found on the way, in its `ids` — is written into the albums by
/// ``finish()``, as one step of history.
///
/// What a lookup service answered about an album's identity is remembered in the library
/// (``LookupAnswer``, recorded with the references): a service that has answered is not
/// asked again (a miss, not before `lookups.retryAfterDays`). Offline, no fetcher is asked:
/// covers come only from the store and from what the services answered before.
public final class CoverService: Sendable {
    /// How one reference was resolved: `fetchedBytes` is nil when the store already had it;
    /// `ids` are the album's identities a fetcher found on the way.
    private struct Outcome: Sendable {
        let resolution: CoverResolution
        let fetchedBytes: Int?
        var ids: [String: String] = [:]
        /// What the lookup services answered on the way, by ``LookupAnswer/key(fetcher:identity:)``.
        var answers: [String: LookupAnswer] = [:]
    }

    /// What one fetch is for: a reference (shared by every album naming it), or an album
    /// that names no cover.
    private enum Subject: Hashable {
        case reference(String)
        case album(AlbumID)
    }

    private struct State {
        var inFlight: [Subject: Task<Outcome, Never>] = [:]
        /// Albums looked up this round, their tasks let go: not looked up again.
        var foundAlready: Set<AlbumID> = []
        /// What fetchers found for albums, to be written into them by ``finish()``.
        var found: [AlbumID: AlbumFindings] = [:]
        /// Where the albums asked for stood (0-based), where ``finish()`` reads them first.
        var positions: [AlbumID: Int] = [:]
        var deliveries: [Task<Void, Never>] = []
        /// Results not yet recorded in the memento.
        var unrecorded: [String: CoverResolution] = [:]
        /// Lookup answers not yet recorded in the library.
        var unrecordedAnswers: [String: LookupAnswer] = [:]
        /// The save that records them, when one is scheduled.
        var flush: Task<Void, Never>?
        var recordingError: (any Error)?
        var summary = CoverFetchSummary()
    }

    /// How long results wait to be recorded together.
    public static let flushInterval = Duration.milliseconds(500)

    private let library: Library
    private let fetchers: [any CoverFetcher]
    private let covers: Configuration.Covers
    private let allowedSchemes: Set<String>
    private let limiter: ConcurrencyLimiter
    private let retryAfterDays: Double
    private let offline: Bool
    private let state = Mutex(State())

    /// A service fetching for `library` through `fetchers` (in order), as `covers` configures;
    /// a lookup that found nothing is asked again after `retryAfterDays` (default:
    /// `lookups.retryAfterDays`'s); `offline`: no fetcher is asked at all.
    public init(
        library: Library, fetchers: [any CoverFetcher], covers: Configuration.Covers,
        retryAfterDays: Double? = nil, offline: Bool = false
    ) {
        self.library = library
        self.fetchers = fetchers
        self.covers = covers
        self.retryAfterDays = retryAfterDays ?? Configuration.Lookups().retryAfterDays
        self.offline = offline
        self.allowedSchemes = Set(covers.allowedSchemes.map { $0.lowercased() })
        self.limiter = ConcurrencyLimiter(limit: covers.concurrency)
    }

    /// Whether a fetcher of the chain finds covers by album, so that albums naming no cover
    /// are worth asking for.
    public var findsByAlbum: Bool { fetchers.contains { $0.findsByAlbum } }

    /// Subscribes to the library's hub: every `cover.requested` becomes a request.
    public func attach() -> HubSubscription {
        // Only the name it handles: subscribed to all, it would make every publisher's
        // `hub.takes` true (an import reading its new albums back for a `library.albumAdded`).
        library.hub.subscribe(to: ["cover.requested"]) { [self] event in
            // An empty reference is an album that names no cover: its requester asks with the album.
            if case .coverRequested(let id, let reference) = event, !reference.isEmpty { request(id, reference: reference) }
        }
    }

    /// Asks for the cover `reference` of album `id`; the outcome is published on the hub.
    /// `album`, when given, is what a fetcher finding by album looks up (else it is read
    /// from the library when such a fetcher is in the chain); `position` (1-based), when given,
    /// is where it stands, where what is found is written first.
    public func request(_ id: AlbumID, reference: String, album: Album? = nil, position: Int? = nil) {
        state.withLock { state in
            if let position { state.positions[id] = position - 1 }
            if let shared = state.inFlight[.reference(reference)] {
                state.deliveries.append(Task { [self] in
                    deliver(Outcome(resolution: await shared.value.resolution, fetchedBytes: nil), to: id, reference: reference)
                })
                return
            }
            let fetch = Task { [self] in await limiter.run { await self.resolve(reference, for: id, album: album) } }
            state.inFlight[.reference(reference)] = fetch
            state.deliveries.append(Task { [self] in
                deliver(await fetch.value, to: id, reference: reference)
            })
        }
    }

    /// Asks for a cover of `album`: its reference's, or — when it names none — one the
    /// fetchers that find by album find (nothing is asked when none of them is in the chain).
    /// `position` (1-based), when given, is where the album stands.
    public func request(_ album: Album, position: Int? = nil) {
        if let reference = album.coverUrl { return request(album.id, reference: reference, album: album, position: position) }
        guard findsByAlbum else { return }
        state.withLock { state in
            guard state.inFlight[.album(album.id)] == nil, !state.foundAlready.contains(album.id) else { return }
            if let position { state.positions[album.id] = position - 1 }
            let fetch = Task { [self] in await limiter.run { await self.find(album) } }
            state.inFlight[.album(album.id)] = fetch
            state.deliveries.append(Task { [self] in deliverFound(await fetch.value, to: album.id) })
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
        try await writeFindings()
        var (summary, error) = state.withLock { ($0.summary, $0.recordingError) }
        for fetcher in fetchers {
            summary.requests.merge(fetcher.requestCounts, uniquingKeysWith: +)
            summary.notes += fetcher.notes
        }
        if let error { throw error }
        return summary
    }

    /// Records the results that landed since the last save, in one save.
    private func record() async throws {
        let (results, answers) = state.withLock { state in
            defer { (state.unrecorded, state.unrecordedAnswers) = ([:], [:]) }
            return (state.unrecorded, state.unrecordedAnswers)
        }
        if !results.isEmpty || !answers.isEmpty { try await library.recordCovers(results, lookups: answers) }
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
                    return !state.unrecorded.isEmpty || !state.unrecordedAnswers.isEmpty
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
            state.unrecordedAnswers.merge(outcome.answers) { _, new in new }
            if !outcome.ids.isEmpty { state.found[id, default: AlbumFindings()].ids.merge(outcome.ids) { old, _ in old } }
            switch event {
            case .coverFetched: state.summary.fetched += 1
            case .coverCached: state.summary.cached += 1
            default: state.summary.failures.append(.init(album: id, reference: reference, reason: resolution.failure ?? ""))
            }
        }
        library.hub.publish(event)
        scheduleFlush()
    }

    /// Publishes what the fetchers found for an album that names no cover, and keeps it for
    /// ``writeFindings()``: the cover as the album's reference, and the identities found.
    private func deliverFound(_ outcome: Outcome, to id: AlbumID) {
        let event: LibraryEvent
        if let key = outcome.resolution.key {
            // No bytes fetched: a service found it before (the lookup cache) and it is stored.
            event = outcome.fetchedBytes.map { .coverFetched(id, reference: key.bundlePath, key: key, bytes: $0) }
                ?? .coverCached(id, reference: key.bundlePath, key: key)
        } else {
            event = .coverFailed(id, reference: "", reason: outcome.resolution.failure ?? "unknown")
        }
        state.withLock { state in
            // A finished task keeps its memory (tens of kB) while it is referenced.
            state.inFlight[.album(id)] = nil
            state.foundAlready.insert(id)
            state.unrecordedAnswers.merge(outcome.answers) { _, new in new }
            var findings = state.found[id, default: AlbumFindings()]
            findings.cover = outcome.resolution.key
            findings.ids.merge(outcome.ids) { old, _ in old }
            if findings.cover != nil || !findings.ids.isEmpty { state.found[id] = findings }
            if outcome.resolution.key != nil {
                if outcome.fetchedBytes == nil { state.summary.cached += 1 } else { state.summary.fetched += 1 }
            } else {
                state.summary.failures.append(.init(album: id, reference: "", reason: outcome.resolution.failure ?? ""))
            }
        }
        library.hub.publish(event)
        scheduleFlush()
    }

    /// Writes what the fetchers found into the albums, as one step of history: a cover for
    /// an album that still names none, identities the album does not have yet.
    private func writeFindings() async throws {
        let (found, positions) = state.withLock { state in
            defer { (state.found, state.positions) = ([:], [:]) }
            return (state.found, state.positions)
        }
        guard !found.isEmpty else { return }
        try await library.write(found, near: positions, label: "covers fetch: what the lookups found")
    }

    /// The stored cover when the memento already maps `reference` to bytes the store holds;
    /// else the first fetcher that gives an image.
    private func resolve(_ reference: String, for id: AlbumID, album: Album?) async -> Outcome {
        let store = library.storage.covers
        if let key = await library.memento.covers[reference]?.key ?? CoverKey(fileName: reference),
            (try? await store.contains(key)) == true
        {
            return Outcome(resolution: .stored(key), fetchedBytes: nil)
        }
        if let scheme = URL(string: reference)?.scheme?.lowercased(), !CoverReference.isInFolder(reference), !allowedSchemes.contains(scheme) {
            return Outcome(resolution: .failed("\(reference): the scheme '\(scheme)' is not in covers.allowedSchemes"), fetchedBytes: 0)
        }
        var album = album
        if album == nil, findsByAlbum { album = try? await library.album(AlbumReference(id.rawValue)).album }
        return await fetch(CoverFetchRequest(reference: reference, maxBytes: covers.maxBytes, album: album), through: fetchers, into: store)
    }

    /// A cover for `album`, which names none, from the fetchers that find by album.
    private func find(_ album: Album) async -> Outcome {
        let request = CoverFetchRequest(reference: "", maxBytes: covers.maxBytes, album: album)
        return await fetch(request, through: fetchers.filter(\.findsByAlbum), into: library.storage.covers)
    }

    /// The first image `fetchers` give for `request`, stored; a fetcher that declines,
    /// fails, or finds an image that will not do passes it to the next. The failure names
    /// every reason met, or that no fetcher handles the request.
    private func fetch(_ request: CoverFetchRequest, through fetchers: [any CoverFetcher], into store: any CoverStore) async -> Outcome {
        let subject = request.reference.isEmpty ? "\(request.album?.artist ?? "") - \(request.album?.title ?? "")" : request.reference
        var reasons: [(fetcher: String, reason: String)] = []
        var ids: [String: String] = [:]
        var known: [String: LookupAnswer] = [:]
        if let album = request.album {
            do {
                known = try await library.lookupAnswers(lookupKeys(for: album))
            } catch {
                return Outcome(resolution: .failed("\(subject): the library's lookup answers could not be read (\(error))"), fetchedBytes: 0)
            }
        }
        var answered: [(fetcher: any CoverFetcher, answer: LookupAnswer)] = []
        let now = Date()
        // The outcome, with the answers given on the way keyed by the album's identity both
        // before and after the identities found are added (as the next round sees it).
        func outcome(_ resolution: CoverResolution, fetchedBytes: Int?) -> Outcome {
            var result = Outcome(resolution: resolution, fetchedBytes: fetchedBytes, ids: ids)
            guard let album = request.album else { return result }
            let albums = [album, AlbumFindings(ids: ids).applied(to: album) ?? album]
            for (fetcher, answer) in answered {
                for identity in Set(albums.compactMap { fetcher.lookupKey(for: $0) }) {
                    result.answers[LookupAnswer.key(fetcher: fetcher.name, identity: identity)] = answer
                }
            }
            return result
        }
        for fetcher in fetchers {
            let identity = request.album.flatMap { fetcher.lookupKey(for: $0) }
            if let identity, let answer = known[LookupAnswer.key(fetcher: fetcher.name, identity: identity)],
                answer.stands(at: now, retryAfterDays: retryAfterDays)
            {
                ids.merge(answer.ids) { old, _ in old }
                if let cover = answer.cover {
                    // A cover found before whose bytes are gone is looked up again.
                    if (try? await store.contains(cover)) == true { return outcome(.stored(cover), fetchedBytes: nil) }
                } else {
                    reasons.append((fetcher.name, "\(subject): \(answer.reason ?? "")"))
                    continue
                }
            }
            if offline {
                reasons.append((fetcher.name, "\(subject): \(fetcher.findsByAlbum ? "not looked up yet" : "not fetched") (offline)"))
                continue
            }
            func remember(_ answer: LookupAnswer) { if identity != nil { answered.append((fetcher, answer)) } }
            do {
                guard let found = try await fetcher.find(request) else {
                    remember(LookupAnswer(at: now, missed: "found nothing"))
                    continue
                }
                ids.merge(found.ids) { old, _ in old }
                guard let bytes = found.bytes else {
                    if let reason = found.reason { reasons.append((fetcher.name, "\(subject): \(reason)")) }
                    remember(LookupAnswer(at: now, ids: found.ids, missed: found.reason ?? "found no cover"))
                    continue
                }
                guard let kind = ImageKind(sniffing: bytes) else {
                    reasons.append((fetcher.name, "\(subject): \(ImageKind.notAnImage(bytes))"))
                    remember(LookupAnswer(at: now, ids: found.ids, missed: ImageKind.notAnImage(bytes)))
                    continue
                }
                if fetcher.findsByAlbum, let problem = covers.problem(withFoundImage: bytes) {
                    reasons.append((fetcher.name, "\(subject): \(problem)"))
                    remember(LookupAnswer(at: now, ids: found.ids, missed: problem))
                    continue
                }
                let key = try await store.put(bytes, fileExtension: kind.fileExtension)
                remember(LookupAnswer(at: now, cover: key, ids: found.ids))
                return outcome(.stored(key), fetchedBytes: bytes.count)
            } catch {
                reasons.append((fetcher.name, String(describing: error)))
                remember(LookupAnswer(at: now, failed: String(describing: error)))
            }
        }
        let failure = switch reasons.count {
        case 0: "\(subject): no fetcher in covers.fetchers (\(self.fetchers.map(\.name).joined(separator: ", "))) \(request.reference.isEmpty ? "found a cover" : "handles it")"
        case 1: reasons[0].reason
        default: reasons.map { "\($0.fetcher): \($0.reason)" }.joined(separator: "; ")
        }
        return outcome(.failed(failure), fetchedBytes: 0)
    }

    /// The keys under which the lookup services of the chain keep their answers about `album`
    /// (``LookupAnswer/key(fetcher:identity:)``), in chain order.
    public func lookupKeys(for album: Album) -> [String] {
        fetchers.compactMap { fetcher in fetcher.lookupKey(for: album).map { LookupAnswer.key(fetcher: fetcher.name, identity: $0) } }
    }

    /// What each lookup service of the chain answered about `album` (nil: not asked yet), in
    /// chain order, from `lookups` (the library's, read under ``lookupKeys(for:)``); services
    /// that ask nothing about it are left out.
    public func lookupAnswers(for album: Album, in lookups: [String: LookupAnswer]) -> [(fetcher: String, answer: LookupAnswer?)] {
        fetchers.compactMap { fetcher in
            fetcher.lookupKey(for: album).map { (fetcher.name, lookups[LookupAnswer.key(fetcher: fetcher.name, identity: $0)]) }
        }
    }
}

/// What the fetchers found for one album: a cover (for an album that named none) and
/// identities it did not have.
struct AlbumFindings: Sendable {
    var cover: CoverKey?
    var ids: [String: String] = [:]

    /// `album` with what was found, or nil when nothing would change: a cover only where the
    /// album still names none, identities only where it has none of that name.
    func applied(to album: Album) -> Album? {
        var changed = album
        if let cover, changed.coverUrl == nil { changed.coverUrl = cover.bundlePath }
        var details = album.details
        for (name, value) in ids where details.ids[name] == nil { details.ids[name] = value }
        // What a service answered is checked as any input is; ids that would break a rule
        // (too many, a bad name) are left out, the cover still kept.
        if let checked = try? details.validated(album: { album.id.rawValue }) { changed.details = checked }
        return changed == album ? nil : changed
    }
}
