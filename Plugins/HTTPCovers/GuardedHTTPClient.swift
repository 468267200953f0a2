import AlbumKit
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One `GET` as every network read of AlbumKit makes it (covers, and the lookups of SPEC 11),
/// through async-http-client, treating whatever comes back as untrusted.
///
/// Every hop of a redirect chain (at most ``maxRedirects``) is checked against the scheme
/// allow-list; its host is resolved once by the ``AddressPolicy``, which refuses link-local
/// and metadata addresses, and the request goes only to the addresses checked, in order
/// (async-http-client's `dnsOverride` pins the name to one, while the Host header and the TLS
/// server name and certificate check keep the name), so a second DNS answer can never
/// redirect it. Each request has `timeoutSeconds`; reading stops past `maxBytes`. An address
/// that refuses the connection is passed over at once (the next one is tried; when none is
/// left the request fails with a short message). A connection that breaks, a `429` and a
/// `5xx` answer are tried again, at most ``attempts`` times in all: after the answer's
/// `Retry-After` when it gives one (at most ``maxRetryAfterSeconds``; a longer wait gives up
/// at once), else after a short backoff. Any other answer is returned as it is, for the
/// caller to judge. An `Authorization` header is not sent on to another host. A
/// ``RequestGate`` given to ``get(_:headers:maxBytes:limitName:reference:gate:)`` is
/// entered before and left after every request it makes (a service's rate limit).
///
/// A client and its copies share their connections: one async-http-client `HTTPClient` for
/// each address a host is pinned to, kept open for the next request, so a run of a thousand
/// covers holds one connection pool, not one a request. ``shutdown()`` closes them; whatever
/// is still open when the last copy is released is closed then.
public struct GuardedHTTPClient: Sendable {
    /// How many redirects one request follows.
    public static let maxRedirects = 5
    /// How many times a request is tried in all.
    public static let attempts = 3
    /// The longest `Retry-After` waited for; a server asking for longer is given up on.
    public static let maxRetryAfterSeconds = 60.0

    /// An answer that is not a redirect: its status, headers (names in lower case, the first
    /// value of each) and body.
    public struct Response: Sendable {
        /// The status code (`200`, `404`).
        public let status: Int
        /// The status line's reason (`Not Found`).
        public let reason: String
        /// Header name in lower case → its first value.
        public let headers: [String: String]
        /// The body, at most the `maxBytes` asked for.
        public let body: Data
        /// The URL that answered, after redirects.
        public let url: String

        /// The status and reason as a message says them: `404 Not Found`.
        public var statusLine: String { "\(status) \(reason)" }
    }

    private let clients: PinnedClients
    private let allowedSchemes: Set<String>
    private let timeout: TimeAmount
    private let policy: AddressPolicy
    private let userAgent: String

    /// A client for `http(s)` in `allowedSchemes`, each request given `timeoutSeconds`,
    /// connecting as `policy` allows and sending `userAgent` with every request; up to
    /// `connectionsPerHost` requests to one address run at once (more wait for a connection).
    public init(
        allowedSchemes: [String], timeoutSeconds: Double, connectionsPerHost: Int, policy: AddressPolicy = AddressPolicy(), userAgent: String
    ) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let timeout = TimeAmount.milliseconds(Int64(timeoutSeconds * 1000))
        configuration.timeout = .init(connect: timeout, read: timeout)
        // Otherwise the pool retries a refused connection until the connect timeout; this
        // client decides itself what is worth retrying.
        configuration.connectionPool.retryConnectionEstablishment = false
        // The callers run that many fetches at once (`covers.concurrency`): each gets its own
        // connection, as it did with a client a request, rather than waiting out its deadline
        // behind a slow one.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, connectionsPerHost)
        clients = PinnedClients(configuration: configuration)
        self.allowedSchemes = Set(allowedSchemes.map { $0.lowercased() }).intersection(["http", "https"])
        self.timeout = timeout
        self.policy = policy
        self.userAgent = userAgent
    }

    /// Closes the connections of this client and its copies, once every request is done. A
    /// request made after opens new ones.
    public func shutdown() async { await clients.shutdown() }

    /// The answer to `GET url`, redirects followed, with `headers` added to every request,
    /// its body read up to `maxBytes` (the setting `limitName` says in an error);
    /// `reference` (what the caller was asked for) names it in errors. Every request this
    /// makes, retries and redirects included, passes through `gate`.
    public func get(
        _ url: String, headers: [(String, String)] = [], maxBytes: Int, limitName: String = "covers.maxBytes",
        reference: String, gate: (any RequestGate)? = nil
    ) async throws -> Response {
        let limit = SizeLimit(bytes: maxBytes, name: limitName)
        var url = url
        var visited: Set<String> = []
        var firstOrigin: String?
        for _ in 0...Self.maxRedirects {
            let target = try resolve(url, original: reference)
            guard visited.insert(url).inserted else {
                throw AlbumKitError(.unreadableInput, "\(reference): redirect loop through \(url)")
            }
            // Credentials go only to the host they were meant for, as curl and browsers do.
            let origin = "\(target.host.lowercased()):\(target.port)"
            firstOrigin = firstOrigin ?? origin
            let sent = origin == firstOrigin ? headers : headers.filter { $0.0.lowercased() != "authorization" }
            switch try await request(url, at: target, headers: sent, limit: limit, original: reference, gate: gate) {
            case .answer(let response): return response
            case .redirect(let location): url = location
            }
        }
        throw AlbumKitError(.unreadableInput, "\(reference): more than \(Self.maxRedirects) redirects")
    }

    private enum Hop {
        case answer(Response)
        case redirect(String)
    }

    /// Where one hop goes: its host as the URL names it, and the addresses checked for it.
    private struct Target {
        let host: String
        let port: Int
        let addresses: [String]
    }

    /// The most bytes a body may have, and the setting that says so.
    private struct SizeLimit {
        let bytes: Int
        let name: String
    }

    /// Why a request is worth trying again, and when.
    private struct RetryableFailure: Error {
        let reason: String
        var retryAfter: Double?
    }

    /// One hop, tried up to ``attempts`` times.
    private func request(
        _ url: String, at target: Target, headers: [(String, String)], limit: SizeLimit, original: String,
        gate: (any RequestGate)?
    ) async throws -> Hop {
        var attempt = 1
        while true {
            do {
                try await gate?.enter()
                do {
                    let hop = try await requestOnce(url, at: target, headers: headers, limit: limit, original: original)
                    await gate?.leave()
                    return hop
                } catch {
                    await gate?.leave()
                    throw error
                }
            } catch let failure as RetryableFailure where attempt < Self.attempts {
                if let wait = failure.retryAfter, wait > Self.maxRetryAfterSeconds {
                    throw AlbumKitError(.connection, "\(original): \(failure.reason), asking to wait \(Int(wait)) seconds (more than \(Int(Self.maxRetryAfterSeconds)))")
                }
                try await Task.sleep(for: .milliseconds(Int64(1000 * (failure.retryAfter ?? 0.1 * Double(1 << attempt)))))
                attempt += 1
            } catch let failure as RetryableFailure {
                throw AlbumKitError(.connection, "\(original): \(failure.reason) (after \(attempt) attempts)")
            }
        }
    }

    private func requestOnce(_ url: String, at target: Target, headers: [(String, String)], limit: SizeLimit, original: String) async throws -> Hop {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: userAgent)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let deadline = NIODeadline.now() + timeout
        var refused: [String] = []
        for address in target.addresses {
            let response: HTTPClientResponse
            do {
                response = try await clients.client(pinning: target.host, to: address).execute(request, deadline: deadline)
            } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
                throw timedOut(original)
            } catch where Self.isRefusal(error) {
                refused.append(address)
                continue
            } catch {
                throw RetryableFailure(reason: "cannot reach \(target.host) (\(address) port \(target.port)): \(error)")
            }
            return try await interpret(response, url: url, limit: limit, original: original)
        }
        throw AlbumKitError(.connection, "\(original): connection refused by \(refused.joined(separator: ", ")) port \(target.port)")
    }

    /// What one response means: a redirect, an answer, or a failure worth trying again.
    private func interpret(_ response: HTTPClientResponse, url: String, limit: SizeLimit, original: String) async throws -> Hop {
        let code = Int(response.status.code)
        switch code {
        case 301, 302, 303, 307, 308:
            guard let location = response.headers.first(name: "Location"), let next = URL(string: location, relativeTo: URL(string: url)) else {
                throw AlbumKitError(.unreadableInput, "\(original): redirect without a usable Location")
            }
            return .redirect(next.absoluteString)
        case 429, 500..<600:
            throw RetryableFailure(
                reason: "the server answered \(code) \(response.status.reasonPhrase)",
                retryAfter: response.headers.first(name: "Retry-After").flatMap(Self.retryAfterSeconds))
        default:
            var fields: [String: String] = [:]
            for header in response.headers where fields[header.name.lowercased()] == nil {
                fields[header.name.lowercased()] = header.value
            }
            let body = try await read(response.body, limit: limit, original: original)
            return .answer(Response(status: code, reason: response.status.reasonPhrase, headers: fields, body: body, url: url))
        }
    }

    /// The seconds a `Retry-After` value asks for: a number of seconds, or an HTTP date.
    static func retryAfterSeconds(_ value: String) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds.isFinite { return max(0, seconds) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return format.date(from: text).map { max(0, $0.timeIntervalSinceNow) }
    }

    private func read(_ body: HTTPClientResponse.Body, limit: SizeLimit, original: String) async throws -> Data {
        var bytes = Data()
        do {
            for try await buffer in body {
                bytes.append(contentsOf: buffer.readableBytesView)
                if bytes.count > limit.bytes {
                    throw AlbumKitError(.limitExceeded, "\(original): larger than \(limit.name) (\(limit.bytes) bytes); stopped reading")
                }
            }
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw timedOut(original)
        }
        return bytes
    }

    private func timedOut(_ original: String) -> AlbumKitError {
        AlbumKitError(.connection, "\(original): timed out after \(timeout.nanoseconds / 1_000_000_000) seconds (covers.timeoutSeconds)")
    }

    /// Checks the scheme and resolves the host once, through the address policy.
    private func resolve(_ url: String, original: String) throws -> Target {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host else {
            throw AlbumKitError(.unreadableInput, "\(original): '\(url)' is not a usable URL")
        }
        guard allowedSchemes.contains(scheme) else {
            throw AlbumKitError(.unsupported, "\(original): the scheme of \(url) is not in covers.allowedSchemes")
        }
        let port = parsed.port ?? (scheme == "https" ? 443 : 80)
        return Target(host: host, port: port, addresses: try policy.addresses(for: host, port: port, reference: original))
    }

    /// Whether `error` says the address refused the connection (nothing listens there):
    /// trying again at once will not help. The target is always a numeric address, which
    /// async-http-client connects to directly, so the refusal comes as the socket's own error.
    private static func isRefusal(_ error: any Error) -> Bool {
        (error as? IOError)?.errnoCode == ECONNREFUSED
    }
}

/// The async-http-client clients of a ``GuardedHTTPClient`` and its copies: one for each host
/// and the address it is pinned to, since a client fixes its DNS overrides when it is made.
/// Each is shut down once: by ``shutdown()``, else when the last copy is released
/// (async-http-client stops a debug build that releases a client still running).
private final class PinnedClients: Sendable {
    private let configuration: HTTPClient.Configuration
    private let clients = Mutex<[String: HTTPClient]>([:])

    init(configuration: HTTPClient.Configuration) { self.configuration = configuration }

    /// The client that connects `host` to `address` only.
    func client(pinning host: String, to address: String) -> HTTPClient {
        clients.withLock { clients in
            let key = "\(host) \(address)"
            if let client = clients[key] { return client }
            var configuration = configuration
            if !AddressPolicy.isNumeric(host) { configuration.dnsOverride = [host: address] }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[key] = client
            return client
        }
    }

    func shutdown() async {
        for client in takeAll() { try? await client.shutdown() }
    }

    deinit {
        // Nothing can be awaited here: the client finishes shutting down on its own.
        for client in takeAll() { client.shutdown { _ in } }
    }

    private func takeAll() -> [HTTPClient] {
        clients.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
    }
}

/// What every request of a ``GuardedHTTPClient`` passes through: entered before the request
/// is sent, left when its answer has been read or it failed.
public protocol RequestGate: Sendable {
    /// Waits until the request may go.
    func enter() async throws
    /// The request is done.
    func leave() async
}
