import AlbumKit
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// `http`: `http(s)://` covers through async-http-client.
///
/// Every hop of a redirect chain (at most 5) is checked against the scheme allow-list and
/// the address policy before it is requested; the whole transfer has `timeoutSeconds`;
/// reading stops past `maxBytes`; connection errors and 5xx answers are retried with
/// backoff, nothing else is. Whether the bytes are an image is the cover service's call,
/// from their magic bytes.
public final class HTTPCoverFetcher: CoverFetcher {
    /// How many redirects one fetch follows.
    public static let maxRedirects = 5
    /// How many times a request is tried in all.
    public static let attempts = 3

    private let client: HTTPClient
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
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
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
            try await check(url, original: request.reference)
            guard visited.insert(url).inserted else {
                throw AlbumKitError(.unreadableInput, "\(request.reference): redirect loop through \(url)")
            }
            switch try await get(url, maxBytes: request.maxBytes, deadline: deadline, original: request.reference) {
            case .body(let bytes): return bytes
            case .redirect(let location): url = location
            }
        }
        throw AlbumKitError(.unreadableInput, "\(request.reference): more than \(Self.maxRedirects) redirects")
    }

    public func shutdown() async { try? await client.shutdown() }

    private enum Answer {
        case body(Data)
        case redirect(String)
    }

    /// One hop, tried up to ``attempts`` times on connection errors and 5xx answers.
    private func get(_ url: String, maxBytes: Int, deadline: NIODeadline, original: String) async throws -> Answer {
        var attempt = 1
        while true {
            do {
                return try await getOnce(url, maxBytes: maxBytes, deadline: deadline, original: original)
            } catch let error as RetryableFailure where attempt < Self.attempts && NIODeadline.now() < deadline {
                _ = error
                try await Task.sleep(for: .milliseconds(100 * (1 << attempt)))
                attempt += 1
            } catch let error as RetryableFailure {
                throw AlbumKitError(.fileSystem, "\(original): \(error.reason) (after \(attempt) attempts)")
            }
        }
    }

    private struct RetryableFailure: Error { let reason: String }

    private func getOnce(_ url: String, maxBytes: Int, deadline: NIODeadline, original: String) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "image/*")
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: deadline)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw AlbumKitError(.fileSystem, "\(original): timed out after \(timeout.nanoseconds / 1_000_000_000) seconds (covers.timeoutSeconds)")
        } catch let error as HTTPClientError {
            throw RetryableFailure(reason: "cannot connect to \(Self.hostAndPort(url)): \(error)")
        } catch {
            throw RetryableFailure(reason: "cannot connect to \(Self.hostAndPort(url)): \(error)")
        }
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
            throw AlbumKitError(.fileSystem, "\(original): timed out after \(timeout.nanoseconds / 1_000_000_000) seconds (covers.timeoutSeconds)")
        }
        return bytes
    }

    private func check(_ url: String, original: String) async throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host else {
            throw AlbumKitError(.unreadableInput, "\(original): '\(url)' is not a usable URL")
        }
        guard allowedSchemes.contains(scheme) else {
            throw AlbumKitError(.unsupported, "\(original): the scheme of \(url) is not in covers.allowedSchemes")
        }
        try policy.check(host: host, port: parsed.port ?? (scheme == "https" ? 443 : 80), reference: original)
    }

    private static func hostAndPort(_ url: String) -> String {
        guard let parsed = URL(string: url), let host = parsed.host else { return url }
        return "\(host):\(parsed.port ?? (parsed.scheme == "https" ? 443 : 80))"
    }
}

extension CoverFetcherFactory {
    /// `http`: `http(s)://` covers over the network.
    public static let httpCovers = CoverFetcherFactory(name: "http", summary: "http(s):// covers through async-http-client") { context in
        HTTPCoverFetcher(covers: context.configuration.covers, userAgent: "albumkit/\(AlbumKitVersion.current)")
    }
}
