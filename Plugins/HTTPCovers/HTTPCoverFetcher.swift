import AlbumKit
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// `http`: `http(s)://` covers through async-http-client.
///
/// Every hop of a redirect chain (at most 5) is checked against the scheme allow-list; its
/// host is resolved once by the ``AddressPolicy``, which refuses link-local and metadata
/// addresses, and the request goes only to the addresses checked, in order
/// (async-http-client's `dnsOverride` pins the name to one, while the Host header and the
/// TLS server name and certificate check keep the name), so a second DNS answer can never
/// redirect it. The whole transfer has `timeoutSeconds`; reading stops past `maxBytes`. An
/// address that refuses the connection is passed over at once (the next one is tried; when
/// none is left the fetch fails with a short message); a connection that breaks and 5xx
/// answers are retried with backoff, nothing else is. Whether the bytes are an image is the cover service's call, from their magic bytes.
public final class HTTPCoverFetcher: CoverFetcher {
    /// How many redirects one fetch follows.
    public static let maxRedirects = 5
    /// How many times a request is tried in all.
    public static let attempts = 3

    private let configuration: HTTPClient.Configuration
    private let allowedSchemes: Set<String>
    private let timeout: TimeAmount
    private let policy: AddressPolicy
    private let userAgent: String

    /// A fetcher for `covers` settings; `userAgent` is sent with every request.
    public init(covers: Configuration.Covers, policy: AddressPolicy = AddressPolicy(), userAgent: String) {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let timeout = TimeAmount.milliseconds(Int64(covers.timeoutSeconds * 1000))
        configuration.timeout = .init(connect: timeout, read: timeout)
        // Otherwise the pool retries a refused connection until the connect timeout; this
        // fetcher decides itself what is worth retrying.
        configuration.connectionPool.retryConnectionEstablishment = false
        self.configuration = configuration
        self.allowedSchemes = Set(covers.allowedSchemes.map { $0.lowercased() }).intersection(["http", "https"])
        self.timeout = timeout
        self.policy = policy
        self.userAgent = userAgent
    }

    public var name: String { "http" }

    public func fetch(_ request: CoverFetchRequest) async throws -> Data? {
        guard let scheme = URL(string: request.reference)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return nil
        }
        let deadline = NIODeadline.now() + timeout
        var url = request.reference
        var visited: Set<String> = []
        for _ in 0...Self.maxRedirects {
            let target = try resolve(url, original: request.reference)
            guard visited.insert(url).inserted else {
                throw AlbumKitError(.unreadableInput, "\(request.reference): redirect loop through \(url)")
            }
            switch try await get(url, at: target, maxBytes: request.maxBytes, deadline: deadline, original: request.reference) {
            case .body(let bytes): return bytes
            case .redirect(let location): url = location
            }
        }
        throw AlbumKitError(.unreadableInput, "\(request.reference): more than \(Self.maxRedirects) redirects")
    }

    private enum Answer {
        case body(Data)
        case redirect(String)
    }

    /// Where one hop goes: its host as the URL names it, and the addresses checked for it.
    private struct Target {
        let host: String
        let port: Int
        let addresses: [String]
    }

    /// One hop, tried up to ``attempts`` times when the connection breaks or the server answers 5xx.
    private func get(_ url: String, at target: Target, maxBytes: Int, deadline: NIODeadline, original: String) async throws -> Answer {
        var attempt = 1
        while true {
            do {
                return try await getOnce(url, at: target, maxBytes: maxBytes, deadline: deadline, original: original)
            } catch let error as RetryableFailure where attempt < Self.attempts && NIODeadline.now() < deadline {
                _ = error
                try await Task.sleep(for: .milliseconds(100 * (1 << attempt)))
                attempt += 1
            } catch let error as RetryableFailure {
                throw AlbumKitError(.connection, "\(original): \(error.reason) (after \(attempt) attempts)")
            }
        }
    }

    private struct RetryableFailure: Error { let reason: String }

    private func getOnce(_ url: String, at target: Target, maxBytes: Int, deadline: NIODeadline, original: String) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "image/*")
        var refused: [String] = []
        for address in target.addresses {
            let answer = try await withClient(pinning: target.host, to: address) { client -> Answer? in
                let response: HTTPClientResponse
                do {
                    response = try await client.execute(request, deadline: deadline)
                } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
                    throw timedOut(original)
                } catch where Self.isRefusal(error) {
                    refused.append(address)
                    return nil
                } catch {
                    throw RetryableFailure(reason: "cannot reach \(target.host) (\(address) port \(target.port)): \(error)")
                }
                return try await interpret(response, url: url, maxBytes: maxBytes, original: original)
            }
            if let answer { return answer }
        }
        throw AlbumKitError(.connection, "\(original): connection refused by \(refused.joined(separator: ", ")) port \(target.port)")
    }

    /// What one response means: the body, a redirect, or a failure (5xx ones worth retrying).
    private func interpret(_ response: HTTPClientResponse, url: String, maxBytes: Int, original: String) async throws -> Answer {
        switch response.status.code {
        case 200..<300:
            return .body(try await read(response.body, maxBytes: maxBytes, original: original))
        case 301, 302, 303, 307, 308:
            guard let location = response.headers.first(name: "Location"), let next = URL(string: location, relativeTo: URL(string: url)) else {
                throw AlbumKitError(.unreadableInput, "\(original): redirect without a usable Location")
            }
            return .redirect(next.absoluteString)
        case 500..<600:
            throw RetryableFailure(reason: "the server answered \(response.status.code) \(response.status.reasonPhrase)")
        default:
            throw AlbumKitError(.unreadableInput, "\(original): the server answered \(response.status.code) \(response.status.reasonPhrase)")
        }
    }

    /// Runs `body` with a client that connects `host` to `address` only; one client per
    /// connection attempt, since async-http-client fixes its DNS overrides when it is made.
    private func withClient<T>(pinning host: String, to address: String, _ body: (HTTPClient) async throws -> T) async throws -> T {
        var configuration = configuration
        if !AddressPolicy.isNumeric(host) { configuration.dnsOverride = [host: address] }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let result = try await body(client)
            try? await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func read(_ body: HTTPClientResponse.Body, maxBytes: Int, original: String) async throws -> Data {
        var bytes = Data()
        do {
            for try await buffer in body {
                bytes.append(contentsOf: buffer.readableBytesView)
                if bytes.count > maxBytes {
                    throw AlbumKitError(.limitExceeded, "\(original): larger than covers.maxBytes (\(maxBytes) bytes); stopped reading")
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

extension CoverFetcherFactory {
    /// `http`: `http(s)://` covers over the network.
    public static let httpCovers = CoverFetcherFactory(name: "http", summary: "http(s):// covers through async-http-client") { context in
        HTTPCoverFetcher(covers: context.configuration.covers, userAgent: "albumkit/\(AlbumKitVersion.current)")
    }
}
