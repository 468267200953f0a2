import AlbumKit
import Foundation
import HTTPCovers
import Synchronization

/// How many requests went to each service: what `covers fetch` and `enrich` end by saying.
public final class RequestTally: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    public init() {}

    /// Requests by service name, retries included.
    public var byService: [String: Int] { counts.withLock { $0 } }

    func count(_ service: String) { counts.withLock { $0[service, default: 0] += 1 } }
}

/// One service as its clients reach it: its base URL, the shared ``GuardedHTTPClient``, the
/// process's rate limiter for it (if it publishes a limit), and the tally. Answers are
/// untrusted: a JSON answer is decoded into the client's types or refused with a reason,
/// an image is checked to be one.
public struct ServiceConnection: Sendable {
    /// The service's name (`musicbrainz`), its settings section's last part.
    public let service: String
    /// The base URL, without a trailing slash.
    public let baseURL: String
    let client: GuardedHTTPClient
    let limiter: RequestRateLimiter?
    let tally: RequestTally
    let imageBytes: Int

    /// The most bytes a JSON answer may have: the largest releases (box sets with their
    /// recordings) stay far below it.
    public static let maxJSONBytes = 8 << 20

    /// A connection to `service` at `baseURL` (checked: an `http(s)` URL), limited to
    /// `requestsPerSecond` when the service publishes a limit.
    init(
        service: String, baseURL: String, requestsPerSecond: Double?, client: GuardedHTTPClient, tally: RequestTally,
        imageBytes: Int
    ) throws {
        let trimmed = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        guard let url = URL(string: trimmed), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw AlbumKitError(.configuration, "plugins.\(service).baseURL: '\(baseURL)' is not an http(s) URL")
        }
        self.service = service
        self.baseURL = trimmed
        self.client = client
        self.limiter = requestsPerSecond.map { RequestRateLimiter.shared(service: service, baseURL: trimmed, requestsPerSecond: $0) }
        self.tally = tally
        self.imageBytes = imageBytes
    }

    /// `path` under the base URL with `query` percent-encoded.
    func url(_ path: String, query: [(String, String)] = []) -> String {
        guard !query.isEmpty else { return baseURL + path }
        var components = URLComponents()
        components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        // URLComponents leaves `+` as it is, which a server reads as a space.
        let encoded = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return baseURL + path + "?" + encoded
    }

    /// The JSON answer at `url` decoded as `T`; nil when the service answers 404 (it does
    /// not know what was asked). Any other answer but a `2xx`, or a body that is not the
    /// JSON expected, is an error naming the service and the URL.
    func json<T: Decodable>(_ type: T.Type, at url: String, headers: [(String, String)] = []) async throws -> T? {
        let response = try await get(url, headers: [("Accept", "application/json")] + headers, maxBytes: Self.maxJSONBytes, limitName: "\(Self.maxJSONBytes) bytes of JSON", limited: true)
        if response.status == 404 { return nil }
        guard (200..<300).contains(response.status) else {
            throw AlbumKitError(.unreadableInput, "\(service) \(url): the server answered \(response.statusLine)")
        }
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            let start = String(decoding: response.body.prefix(40), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
            throw AlbumKitError(.unreadableInput, "\(service) \(url): the answer is not the JSON expected (\(response.body.count) bytes starting '\(start)')")
        }
    }

    /// The image at `url`; nil when the server answers 404. `limited`: the request counts
    /// against the service's rate (an image on the service's own host, not on a CDN).
    /// Bytes that are not an image are an error.
    func image(at url: String, limited: Bool) async throws -> Data? {
        let response = try await get(url, headers: [("Accept", "image/*")], maxBytes: imageBytes, limitName: "covers.maxBytes", limited: limited)
        if response.status == 404 { return nil }
        guard (200..<300).contains(response.status) else {
            throw AlbumKitError(.unreadableInput, "\(service) \(url): the server answered \(response.statusLine)")
        }
        guard ImageKind(sniffing: response.body) != nil else {
            throw AlbumKitError(.unreadableInput, "\(service) \(url): \(ImageKind.notAnImage(response.body))")
        }
        return response.body
    }

    private func get(_ url: String, headers: [(String, String)], maxBytes: Int, limitName: String, limited: Bool) async throws -> GuardedHTTPClient.Response {
        let gate = CountingGate(service: service, tally: tally, limiter: limited ? limiter : nil)
        return try await client.get(url, headers: headers, maxBytes: maxBytes, limitName: limitName, reference: "\(service) \(url)", gate: gate)
    }
}

/// A request to a service: through its limiter, if it has one, and counted.
private struct CountingGate: RequestGate {
    let service: String
    let tally: RequestTally
    let limiter: RequestRateLimiter?

    func enter() async throws {
        try await limiter?.enter()
        tally.count(service)
    }

    func leave() async { await limiter?.leave() }
}
